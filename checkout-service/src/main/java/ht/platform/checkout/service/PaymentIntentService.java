package ht.platform.checkout.service;

import java.time.Clock;
import ht.platform.support.http.PublicUrls;
import ht.platform.checkout.events.EventOutbox;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.model.Money;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentAttemptStore;
import ht.platform.checkout.model.PaymentIntentStore;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.idempotency.OneStatementCreate.Creation;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.util.List;

import static ht.platform.checkout.service.PaymentIntentStatus.*;
import static ht.platform.checkout.service.PaymentIntentTransitions.owned;
import static ht.platform.checkout.service.PaymentIntentTransitions.unexpected;

/**
 * The client API of payment intents: create, read, list, cancel and capture. The provider is called only between
 * transactions: the attempt is recorded (and committed) first, the call made, the answer recorded.
 */
@ApplicationScoped
public class PaymentIntentService {

    /** Intent fields after validation. */
    public record NewIntent(BigDecimal amount, String currency, String description, String externalReference,
                            String returnUrl, String captureMethod, long expiresInSeconds) { }

    @Inject
    Clock clock;

    @Inject
    PublicUrls urls;

    @Inject
    EventOutbox outbox;

    @Inject
    Idempotency idempotency;

    @Inject
    OneStatementCreate creates;

    @Inject
    PaymentIntentStore intents;

    @Inject
    PaymentAttemptStore attemptRows;

    @Inject
    PaymentAttempts attempts;

    @Inject
    ProviderCalls calls;

    @Inject
    PaymentIntentTransitions transitions;


    // ---------------------------------------------------------------- validation

    public NewIntent validate(String mode, String amount, String currency, String description, String externalReference,
                              String returnUrl, String captureMethod, Long expiresIn) {
        BigDecimal value = Money.parse("amount", amount);
        String cur = Money.currency("currency", currency);
        if (description != null && description.length() > 1000) {
            throw ApiException.invalid("description", "description must be at most 1000 characters");
        }
        if (externalReference != null && externalReference.length() > 200) {
            throw ApiException.invalid("external_reference", "external_reference must be at most 200 characters");
        }
        validateReturnUrl(mode, returnUrl);
        String capture = captureMethod == null ? "automatic" : captureMethod;
        if (!capture.equals("automatic") && !capture.equals("manual")) {
            throw ApiException.invalid("capture_method", "capture_method must be 'automatic' or 'manual'");
        }
        long expires = expiresIn == null ? 3600 : expiresIn;
        if (expires < 300 || expires > 86400) {
            throw ApiException.invalid("expires_in", "expires_in must be between 300 and 86400 seconds");
        }
        return new NewIntent(value, cur, description, externalReference, returnUrl, capture, expires);
    }

    public static void validateReturnUrl(String mode, String returnUrl) {
        if (returnUrl == null) {
            return;
        }
        URI uri;
        try {
            uri = returnUrl.length() > 2048 ? null : new URI(returnUrl);
        } catch (Exception e) {
            uri = null;
        }
        if (uri == null || !uri.isAbsolute() || uri.getHost() == null) {
            throw ApiException.invalid("return_url", "return_url must be an absolute URL of at most 2048 characters");
        }
        boolean local = "localhost".equalsIgnoreCase(uri.getHost()) || "127.0.0.1".equals(uri.getHost());
        boolean ok = "https".equalsIgnoreCase(uri.getScheme())
                || ("http".equalsIgnoreCase(uri.getScheme()) && local && "test".equals(mode));
        if (!ok) {
            throw ApiException.invalid("return_url", "return_url must use https (http is allowed only for localhost in test mode)");
        }
    }

    // ---------------------------------------------------------------- create, read, list

    /**
     * POST /api/v1/payment_intents: idempotent by the optional key (the same key and body replay the first answer).
     * The key, the intent and its payment_intent.created event are one statement ({@link OneStatementCreate}).
     */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, Requests.CreatePaymentIntent body) {
        return creates.create(caller, idempotencyKey, false, () -> {
            if (body == null) {
                throw ApiException.invalid("amount", "A JSON body is required");
            }
            NewIntent in = validate(caller.mode(), body.amount(), body.currency(), body.description(),
                    body.external_reference(), body.return_url(), body.capture_method(), body.expires_in());
            PaymentIntent pi = newIntent(caller.ownerId(), caller.mode(), in, null);
            return Creation.of(body, idempotency.response(201, Views.of(pi, urls.base())), PaymentIntentStore.NEW,
                    PaymentIntentStore.newValues(pi), from -> outbox.paymentIntentInOne(pi, EventTypes.PI_CREATED, from));
        });
    }

    /** Inside the caller's transaction: a new intent and its payment_intent.created event. */
    public Uni<PaymentIntent> insert(String applicationId, String mode, NewIntent in, String linkId) {
        return intents.persist(newIntent(applicationId, mode, in, linkId))
                .call(p -> outbox.paymentIntentEvent(p, EventTypes.PI_CREATED));
    }

    private PaymentIntent newIntent(String applicationId, String mode, NewIntent in, String linkId) {
        Instant now = transitions.now();
        PaymentIntent pi = new PaymentIntent();
        pi.id = Ids.ulid("pay_pi_", clock);
        pi.sessionId = Ids.ulid("pay_cs_", clock);
        pi.applicationId = applicationId;
        pi.mode = mode;
        pi.status = REQUIRES_PAYMENT_METHOD;
        pi.amount = in.amount();
        pi.amountReceived = Money.of(null);
        pi.amountRefunded = Money.of(null);
        pi.currency = in.currency();
        pi.captureMethod = in.captureMethod();
        pi.description = in.description();
        pi.externalReference = in.externalReference();
        pi.returnUrl = in.returnUrl();
        pi.paymentLinkId = linkId;
        pi.createdAt = now;
        pi.expiresAt = now.plusSeconds(in.expiresInSeconds());
        pi.updatedAt = now;
        return pi;
    }

    public Uni<PaymentIntent> get(ApiPrincipal caller, String id) {
        return intents.readOwned(id, caller.ownerId(), caller.mode());
    }

    public Uni<Views.ListView<Views.PaymentIntentView>> list(ApiPrincipal caller, Integer limit, String startingAfter,
                                                              String status) {
        int n = limit == null ? 10 : limit;
        if (n < 1 || n > 100) {
            throw ApiException.invalid("limit", "limit must be between 1 and 100");
        }
        if (status != null && !ALL.contains(status)) {
            throw ApiException.invalid("status", "Unknown status '" + status + "'");
        }
        return intents.readPage(caller.ownerId(), caller.mode(), status, startingAfter, n + 1).map(rows -> {
            boolean more = rows.size() > n;
            List<Views.PaymentIntentView> data = rows.stream().limit(n).map(pi -> Views.of(pi, urls.base())).toList();
            return Views.ListView.of(data, more);
        });
    }

    // ---------------------------------------------------------------- cancel, capture

    public Uni<PaymentIntent> cancel(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> transitions.lock(id).map(pi -> owned(caller, pi, id)).chain(pi -> {
            if (pi.status.equals(REQUIRES_CAPTURE)) {
                return attemptRows.openCapturesAndReleases(pi.id).chain(open -> {
                    if (open > 0) {
                        throw unexpected(pi, "cancel", "a capture is in progress");
                    }
                    return attemptRows.authorization(pi.id).chain(auth -> attempts.record(pi, "release", auth == null ? "test_card" : auth.paymentMethod,
                                    pi.amount, null))
                            .chain(() -> transitions.move(pi, CANCELLED, EventTypes.PI_CANCELLED));
                });
            }
            if (!pi.status.equals(REQUIRES_PAYMENT_METHOD) && !pi.status.equals(REQUIRES_ACTION)) {
                throw unexpected(pi, "cancel", null);
            }
            return transitions.move(pi, CANCELLED, EventTypes.PI_CANCELLED);
        })).call(this::releaseOpenReleases);
    }

    /** After commit: asks the rail to release the reservation of a cancelled manual-capture intent. */
    private Uni<Void> releaseOpenReleases(PaymentIntent pi) {
        return attemptRows.readStartedReleases(pi.id).chain(list -> list.isEmpty() ? Uni.createFrom().voidItem() : calls.run(list.get(0)));
    }

    public Uni<PaymentIntent> capture(ApiPrincipal caller, String id, String amountToCapture) {
        return Panache.withTransaction(() -> transitions.lock(id).map(pi -> owned(caller, pi, id)).chain(pi -> {
            if (!pi.status.equals(REQUIRES_CAPTURE)) {
                throw unexpected(pi, "capture", null);
            }
            BigDecimal amount = amountToCapture == null ? pi.amount : Money.parse("amount_to_capture", amountToCapture);
            if (amount.compareTo(pi.amount) > 0) {
                throw ApiException.invalid("amount_to_capture", "amount_to_capture must not exceed the amount " + Money.text(pi.amount));
            }
            return attemptRows.openCapturesAndReleases(pi.id).chain(open -> {
                if (open > 0) {
                    throw unexpected(pi, "capture", "a capture is already in progress");
                }
                return attemptRows.authorization(pi.id).chain(auth -> attempts.record(pi, "capture", auth.paymentMethod, amount, null));
            });
        })).chain(calls::run).chain(() -> get(caller, id));
    }
}
