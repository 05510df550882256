package ht.platform.checkout.service;

import io.smallrye.mutiny.Multi;
import java.time.Clock;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.model.PaymentIntentStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.stream.Collectors;

import static ht.platform.checkout.service.PaymentIntentStatus.*;

/** Intents nobody paid in time end {@code expired}; each one in its own transaction, checked again under its lock. */
@ApplicationScoped
public class PaymentIntentExpiry {

    private static final int BATCH = 200;

    @Inject
    Clock clock;

    @Inject
    PaymentIntentStore intents;

    @Inject
    PaymentIntentTransitions transitions;

    /** One pass; answers how many intents expired. */
    public Uni<Integer> expireDue() {
        return intents.readExpired(clock.instant(), BATCH).chain(due -> Multi.createFrom().iterable(due)
                .onItem().transformToUniAndConcatenate(id -> Panache.withTransaction(() -> transitions.lock(id).chain(pi -> {
                    if ((pi.status.equals(REQUIRES_PAYMENT_METHOD) || pi.status.equals(REQUIRES_ACTION))
                            && !pi.expiresAt.isAfter(clock.instant())) {
                        return transitions.move(pi, EXPIRED, EventTypes.PI_EXPIRED).replaceWith(1);
                    }
                    return Uni.createFrom().item(0);
                })))
                .collect().with(Collectors.summingInt(Integer::intValue)));
    }
}
