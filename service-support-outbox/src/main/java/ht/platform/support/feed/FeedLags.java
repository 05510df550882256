package ht.platform.support.feed;

import ht.platform.support.outbox.DeliveryPolicy;
import ht.platform.support.time.Timestamps;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How far behind the feed each pull address is, for the dashboards. */
@ApplicationScoped
public class FeedLags {

    /** {@code behind} events (at most {@link FeedStore#LAG_CAP}, then "10000+"), last read at {@code readAt} or never. */
    public record FeedLag(String behind, String readAt) { }

    @Inject
    FeedStore store;

    @Inject
    Instance<DeliveryPolicy> policies;

    public Uni<Map<String, FeedLag>> of(List<String> destinationIds) {
        DeliveryPolicy policy = policies.get();
        if (destinationIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Uni.join().all(destinationIds.stream().map(id -> store.lag(policy, id)).toList()).andFailFast()
                .map(lags -> {
                    Map<String, FeedLag> out = new LinkedHashMap<>();
                    for (int i = 0; i < lags.size(); i++) {
                        FeedStore.Lag lag = lags.get(i);
                        out.put(destinationIds.get(i), new FeedLag(
                                lag.behind() >= FeedStore.LAG_CAP ? FeedStore.LAG_CAP + "+" : Long.toString(lag.behind()),
                                lag.readAt().map(Timestamps::seconds).orElse(null)));
                    }
                    return out;
                });
    }
}
