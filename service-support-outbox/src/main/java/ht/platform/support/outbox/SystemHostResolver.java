package ht.platform.support.outbox;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The JDK's resolver, on a few threads of its own: a lookup that stalls holds one of them, never an event loop
 * or the shared worker pool, and the transport stops waiting for it at the end of the send budget. An answer is
 * kept for {@link #KEEP} (shorter than the JDK's own 30 s cache of the same answer), so a busy address costs no
 * thread hop per delivery; every send still checks the addresses it connects to.
 */
@DefaultBean
@ApplicationScoped
public class SystemHostResolver implements HostResolver {

    static final Duration KEEP = Duration.ofSeconds(10);

    private final Cache<String, List<InetAddress>> answers = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(KEEP).build();

    private final ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "webhook-dns");
        t.setDaemon(true);
        return t;
    });

    @Override
    public Uni<List<InetAddress>> resolve(String host) {
        List<InetAddress> known = answers.getIfPresent(host);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return Uni.createFrom().item(() -> {
            try {
                List<InetAddress> addresses = List.of(InetAddress.getAllByName(host));
                answers.put(host, addresses);
                return addresses;
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException("host " + host + " could not be resolved", e);
            }
        }).runSubscriptionOn(threads);
    }

    @PreDestroy
    void close() {
        threads.shutdownNow();
    }
}
