package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.checkout.model.Money;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.events.EventOutbox;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.Refund;
import ht.platform.checkout.model.RefundStore;
import ht.platform.checkout.provider.PaymentProvider;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.ProviderResult;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.util.List;

import static ht.platform.checkout.service.PaymentIntentStatus.*;

/**
 * Refunds. Creation locks the intent row, so refundable = received − (pending + succeeded refunds) is computed
 * and the new refund inserted under that lock: any number of concurrent refunds never exceed what was received.
 * The provider is called after the creating transaction committed; its answer is recorded in another one.
 */
@ApplicationScoped
public class RefundService {

    public static final List<String> REASONS = List.of("requested_by_customer", "duplicate", "fraudulent");

    @Inject
    Clock clock;

    @Inject
    PaymentIntentTransitions transitions;

    @Inject
    PaymentAttemptStore attempts;

    @Inject
    RefundStore refunds;

    @Inject
    Idempotency idempotency;

    @Inject
    EventOutbox outbox;

    @Inject
    PaymentRails rails;

    /** POST /api/v1/refunds: idempotent by the required key; the rail is called once the refund is committed. */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, Requests.CreateRefund body) {
        String key = idempotency.validateKey(idempotencyKey, true);
        if (body == null) {
            throw ApiException.invalid("payment_intent", "A JSON body is required");
        }
        String fingerprint = idempotency.fingerprint(body);
        String intentId = body.payment_intent();
        String amountText = body.amount();
        String reason = body.reason();
        if (intentId == null || intentId.isBlank()) {
            throw ApiException.invalid("payment_intent", "payment_intent is required");
        }
        BigDecimal requested = amountText == null ? null : Money.parse("amount", amountText);
        if (reason != null && !REASONS.contains(reason)) {
            throw ApiException.invalid("reason", "reason must be one of " + REASONS);
        }
        String[] created = new String[1];
        return idempotency.run(caller, key, fingerprint, () -> transitions.lock(intentId).chain(pi -> {
            PaymentIntentTransitions.owned(caller, pi, intentId);
            if (!pi.status.equals(SUCCEEDED) && !pi.status.equals(PARTIALLY_REFUNDED)) {
                throw PaymentIntentTransitions.unexpected(pi, "refund", "only succeeded or partially refunded payments can be refunded");
            }
            return refunds.committed(pi.id).chain(existing -> {
                BigDecimal committed = existing.stream().map(r -> r.amount).reduce(BigDecimal.ZERO, BigDecimal::add);
                BigDecimal refundable = pi.amountReceived.subtract(committed);
                BigDecimal amount = requested == null ? refundable : requested;
                if (refundable.signum() <= 0 || amount.compareTo(refundable) > 0) {
                    throw new ApiException(409, "REFUND_EXCEEDS_AVAILABLE", "The refund exceeds what remains refundable ("
                            + Money.text(refundable.max(BigDecimal.ZERO)) + " " + pi.currency + ")", "amount");
                }
                Refund r = new Refund();
                r.id = Ids.ulid("pay_re_", clock);
                r.applicationId = pi.applicationId;
                r.mode = pi.mode;
                r.paymentIntentId = pi.id;
                r.amount = Money.of(amount);
                r.currency = pi.currency;
                r.status = "pending";
                r.reason = reason;
                r.provider = rails.providers(pi.mode).isEmpty() ? "none" : rails.providers(pi.mode).get(0).name();
                r.createdAt = transitions.now();
                r.updatedAt = r.createdAt;
                created[0] = r.id;
                return refunds.persist(r)
                        .call(saved -> outbox.refundEvent(saved, pi, EventTypes.REFUND_CREATED))
                        .map(saved -> idempotency.response(201, Views.of(saved)));
            });
        })).call(stored -> stored.replayed() || created[0] == null ? Uni.createFrom().voidItem() : execute(created[0]));
    }

    /** The newest refunds of this application and mode (at most {@code limit}). */
    public Uni<List<Views.RefundView>> latest(ApiPrincipal caller, int limit) {
        return refunds.readLatest(caller.ownerId(), caller.mode(), limit).map(rows -> rows.stream().map(Views::of).toList());
    }

    public Uni<Refund> get(ApiPrincipal caller, String id) {
        return refunds.read(id).map(r -> {
            if (r == null || !r.applicationId.equals(caller.ownerId()) || !r.mode.equals(caller.mode())) {
                throw ApiException.notFound("Refund " + id);
            }
            return r;
        });
    }

    /** Calls the rail for a pending refund (idempotent by refund id) and records the answer. */
    public Uni<Void> execute(String refundId) {
        return Panache.withSession(() -> refunds.byId(refundId).chain(r -> attempts.authorization(r.paymentIntentId)
                        .map(auth -> new Object[] {r, auth})))
                .chain(pair -> {
                    Refund r = (Refund) pair[0];
                    PaymentAttempt auth = (PaymentAttempt) pair[1];
                    PaymentProvider provider = rails.provider(r.provider).orElse(null);
                    if (provider == null || !r.status.equals("pending")) {
                        return Uni.createFrom().voidItem();
                    }
                    String authId = auth == null ? r.paymentIntentId : auth.id;
                    return rails.call(provider, () -> provider.refund(r.id, authId, r.amount, r.currency))
                            .chain(result -> record(r.id, result));
                });
    }

    Uni<Void> record(String refundId, ProviderResult result) {
        if (!result.definitive()) {
            return Uni.createFrom().voidItem(); // stays pending; the reconciler asks again
        }
        return Panache.withTransaction(() -> refunds.byId(refundId).chain(r0 -> transitions.lock(r0.paymentIntentId)
                .chain(pi -> refunds.lock(refundId).chain(r -> {
                    if (!r.status.equals("pending")) {
                        return Uni.createFrom().voidItem();
                    }
                    r.updatedAt = transitions.now();
                    if (result.status() == ProviderResult.Status.SUCCEEDED) {
                        r.status = "succeeded";
                        pi.amountRefunded = pi.amountRefunded.add(r.amount);
                        String next = pi.amountRefunded.compareTo(pi.amountReceived) >= 0 ? REFUNDED : PARTIALLY_REFUNDED;
                        return transitions.move(pi, next, null)
                                .chain(() -> outbox.refundEvent(r, pi, EventTypes.REFUND_SUCCEEDED)).replaceWithVoid();
                    }
                    r.status = "failed";
                    r.failureReason = result.failureCode() == null ? "provider_declined" : result.failureCode();
                    r.failureMessage = result.failureMessage();
                    return refunds.flush()
                            .chain(() -> outbox.refundEvent(r, pi, EventTypes.REFUND_FAILED)).replaceWithVoid();
                }))));
    }
}
