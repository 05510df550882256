package ht.platform.checkout.model;

import ht.platform.support.sql.NewestFirst;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.OneStatementCreate;
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
 * Every query of the payment intent aggregate. Methods named {@code read…} open their own session; the others run
 * inside the caller's session or transaction.
 */
@ApplicationScoped
public class PaymentIntentStore {

    static final String BY_ID = "SELECT " + PaymentIntent.COLUMNS
            + " FROM checkout.payment_intents WHERE id = $1";

    static final String EXPIRED = "SELECT id FROM checkout.payment_intents"
            + " WHERE status IN ('requires_payment_method', 'requires_action') AND expires_at <= $1"
            + " ORDER BY expires_at LIMIT $2";

    @Inject
    Pool pool;

    /**
     * The caller's intent, or 404. One prepared statement on the plain reactive client, no ORM session (the session
     * was most of a read's CPU); the intent is detached.
     */
    public Uni<PaymentIntent> readOwned(String id, String applicationId, String mode) {
        return pool.preparedQuery(BY_ID).execute(Tuple.of(id)).map(rows -> Rows.owned(rows, "application_id", applicationId,
                mode, PaymentIntent::fromRow, () -> ApiException.notFound("Payment intent " + id)));
    }

    public Uni<PaymentIntent> read(String id) {
        return Panache.withSession(() -> byId(id));
    }

    public Uni<PaymentIntent> readBySession(String sessionId) {
        return Panache.withSession(() -> bySession(sessionId));
    }

    /** The intent behind a checkout session (in the caller's session), or null. */
    public Uni<PaymentIntent> bySession(String sessionId) {
        return PaymentIntent.<PaymentIntent>find("sessionId", sessionId).firstResult();
    }

    public Uni<PaymentIntent> byId(String id) {
        return PaymentIntent.findById(id);
    }

    /** The intent under a row lock, or 404. */
    public Uni<PaymentIntent> lock(String id) {
        return PaymentIntent.<PaymentIntent>findById(id, LockModeType.PESSIMISTIC_WRITE).map(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + id);
            }
            return pi;
        });
    }

    /** The table a new intent is written into ({@link OneStatementCreate}), its values {@link #newValues}. */
    public static final OneStatementCreate.Table NEW = OneStatementCreate.Table.of("checkout.payment_intents", "id text,"
            + " application_id text, mode text, status text, amount numeric, amount_received numeric,"
            + " amount_refunded numeric, currency text, capture_method text, description text, external_reference text,"
            + " return_url text, session_id text, payment_link_id text, created_at timestamptz, expires_at timestamptz,"
            + " updated_at timestamptz");

    public static List<Object> newValues(PaymentIntent pi) {
        return OneStatementCreate.row(pi.id, pi.applicationId, pi.mode, pi.status, pi.amount, pi.amountReceived,
                pi.amountRefunded, pi.currency, pi.captureMethod, pi.description, pi.externalReference, pi.returnUrl,
                pi.sessionId, pi.paymentLinkId, OneStatementCreate.time(pi.createdAt), OneStatementCreate.time(pi.expiresAt),
                OneStatementCreate.time(pi.updatedAt));
    }

    public Uni<PaymentIntent> persist(PaymentIntent pi) {
        return pi.persist();
    }

    /** Writes pending changes so that what follows in the transaction (an event) sees them. */
    public Uni<Void> flush() {
        return Panache.getSession().chain(s -> s.flush());
    }

    /**
     * Up to {@code limit} of an application's intents in one mode after the cursor {@code after}, newest first;
     * {@code status} is optional.
     */
    public Uni<List<PaymentIntent>> readPage(String applicationId, String mode, String status, String after, int limit) {
        return new NewestFirst<>(PaymentIntent.class, "applicationId").page(applicationId, mode, "status", status, after,
                "starting_after must be the id of one of your payment intents", limit);
    }

    /** Ids of intents nobody paid whose time is up, at most {@code limit}, the longest due first. */
    public Uni<List<String>> readExpired(Instant now, int limit) {
        return pool.preparedQuery(EXPIRED).execute(Tuple.of(now.atOffset(ZoneOffset.UTC), limit))
                .map(rows -> Rows.strings(rows, "id"));
    }
}
