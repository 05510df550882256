package ht.platform.checkout.model;

import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Every query of payment attempts (the calls to a rail). Methods named {@code read…} open their own session; the
 * others run inside the caller's session or transaction.
 */
@ApplicationScoped
public class PaymentAttemptStore {

    static final String UNSETTLED = "SELECT id FROM checkout.payment_attempts"
            + " WHERE status IN ('pending', 'unknown')"
            + " OR (status = 'started' AND (kind IN ('release', 'reversal') OR created_at < $1))"
            + " ORDER BY updated_at LIMIT $2";

    @Inject
    Pool pool;

    public Uni<PaymentAttempt> byId(String id) {
        return PaymentAttempt.findById(id);
    }

    public Uni<PaymentAttempt> read(String id) {
        return Panache.withSession(() -> byId(id));
    }

    public Uni<PaymentAttempt> lock(String id) {
        return PaymentAttempt.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    public Uni<PaymentAttempt> persist(PaymentAttempt attempt) {
        return attempt.persist();
    }

    /** The intent's successful authorization, or null. */
    public Uni<PaymentAttempt> authorization(String intentId) {
        return PaymentAttempt.<PaymentAttempt>find("paymentIntentId = ?1 and kind = 'authorize' and status = 'succeeded'", intentId)
                .firstResult();
    }

    public Uni<PaymentAttempt> readAuthorization(String intentId) {
        return Panache.withSession(() -> authorization(intentId));
    }

    /** Captures and releases of the intent still waiting for the rail's answer. */
    public Uni<Long> openCapturesAndReleases(String intentId) {
        return PaymentAttempt.count("paymentIntentId = ?1 and kind in ('capture', 'release') and status in ('started', 'pending', 'unknown')",
                intentId);
    }

    public Uni<List<PaymentAttempt>> readStartedReleases(String intentId) {
        return Panache.withSession(() -> PaymentAttempt.<PaymentAttempt>find(
                "paymentIntentId = ?1 and kind = 'release' and status = 'started'", intentId).list());
    }

    public Uni<PaymentAttempt> readPendingAuthorization(String intentId) {
        return Panache.withSession(() -> PaymentAttempt.<PaymentAttempt>find(
                "paymentIntentId = ?1 and kind = 'authorize' and status = 'pending'", intentId).firstResult());
    }

    /** The newest authorization of the intent on {@code provider} that sent the customer to the rail's page, or null. */
    public Uni<PaymentAttempt> readLatestRedirect(String intentId, String provider) {
        return Panache.withSession(() -> PaymentAttempt.<PaymentAttempt>find("paymentIntentId = ?1 and kind = 'authorize'"
                + " and provider = ?2 and redirectUrl is not null order by createdAt desc", intentId, provider).firstResult());
    }

    /**
     * Ids of attempts whose answer is pending or ambiguous, or that were started and never answered (oldest update
     * first), at most {@code limit}.
     */
    public Uni<List<String>> readUnsettled(Instant startedBefore, int limit) {
        return pool.preparedQuery(UNSETTLED).execute(Tuple.of(startedBefore.atOffset(ZoneOffset.UTC), limit))
                .map(rows -> Rows.strings(rows, "id"));
    }
}
