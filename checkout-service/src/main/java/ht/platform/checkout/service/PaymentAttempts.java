package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.support.ids.Ids;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;

/** Records a call to the rail before it is made (committed with the intent's transition), so it can be repeated or looked up. */
@ApplicationScoped
public class PaymentAttempts {

    @Inject
    Clock clock;

    @Inject
    PaymentRails rails;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    PaymentIntentTransitions transitions;

    public Uni<PaymentAttempt> record(PaymentIntent pi, String kind, String method, BigDecimal amount, String scenario) {
        return record(pi, kind, method, amount, scenario, null);
    }

    /** {@code reverses}: the attempt whose money a reversal gives back. */
    public Uni<PaymentAttempt> record(PaymentIntent pi, String kind, String method, BigDecimal amount, String scenario,
                                      String reverses) {
        PaymentAttempt a = new PaymentAttempt();
        a.reversesAttemptId = reverses;
        a.id = Ids.ulid("pay_at_", clock);
        a.paymentIntentId = pi.id;
        a.kind = kind;
        a.provider = rails.providers(pi.mode).isEmpty() ? "none" : rails.providers(pi.mode).get(0).name();
        a.paymentMethod = method;
        a.amount = amount;
        a.status = "started";
        a.scenario = scenario;
        a.createdAt = transitions.now();
        a.updatedAt = a.createdAt;
        return attempts.persist(a);
    }
}
