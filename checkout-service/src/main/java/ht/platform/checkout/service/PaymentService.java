package ht.platform.checkout.service;

import ht.platform.checkout.model.Money;
import ht.platform.checkout.events.EventTypes;
import ht.platform.checkout.events.EventOutbox;
import ht.platform.checkout.model.PaymentAttempt;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentLink;
import ht.platform.checkout.provider.PaymentProvider;
import ht.platform.checkout.provider.PaymentRails;
import ht.platform.checkout.provider.ProviderResult;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.math.BigDecimal;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static ht.platform.checkout.service.PaymentIntentStatus.*;

/**
 * Payment intents: creation, reads, cancel, capture and the payment flow. Every transition happens under a row
 * lock on the intent and is checked against the graph; the provider is called only between transactions: the
 * attempt is recorded (and committed) first, the call made, the answer recorded.
 */
@ApplicationScoped
public class PaymentService {

    public static final String UNEXPECTED_STATE = "PAYMENT_INTENT_UNEXPECTED_STATE";

    /** Intent fields after validation. */
    public record NewIntent(BigDecimal amount, String currency, String description, String externalReference,
                            String returnUrl, String captureMethod, long expiresInSeconds) { }

    @Inject
    Clock clock;

    @Inject
    EventOutbox outbox;

    @Inject
    PaymentRails rails;


    @Inject
    Idempotency idempotency;

    @Inject
    Pool pool;

    private static final String BY_ID = "SELECT " + PaymentIntent.COLUMNS
            + " FROM checkout.payment_intents WHERE id = $1 AND application_id = $2 AND mode = $3";

    @ConfigProperty(name = "public-base-url")
    String publicBaseUrl;

    public String publicBaseUrl() {
        return publicBaseUrl;
    }

    public Clock clock() {
        return clock;
    }

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

    public Uni<StoredResponse> create(ApiPrincipal caller, NewIntent in, String idempotencyKey, String fingerprint) {
        return idempotency.run(caller, idempotencyKey, fingerprint,
                () -> insert(caller.ownerId(), caller.mode(), in, null)
                        .map(pi -> idempotency.response(201, Views.of(pi, publicBaseUrl))));
    }

    /** Inside the caller's transaction: a new intent and its payment_intent.created event. */
    public Uni<PaymentIntent> insert(String applicationId, String mode, NewIntent in, String linkId) {
        Instant now = now();
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
        return pi.<PaymentIntent>persist().call(p -> outbox.paymentIntentEvent(p, EventTypes.PI_CREATED));
    }

    /** One prepared statement on the plain reactive client, no ORM session (the session was most of a read's CPU). */
    public Uni<PaymentIntent> get(ApiPrincipal caller, String id) {
        return pool.preparedQuery(BY_ID).execute(Tuple.of(id, caller.ownerId(), caller.mode()))
                .map(rows -> Rows.single(rows, PaymentIntent::fromRow, "Payment intent " + id));
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
        return Panache.withSession(() -> {
            Uni<PaymentIntent> cursor = startingAfter == null ? Uni.createFrom().nullItem()
                    : PaymentIntent.<PaymentIntent>findById(startingAfter).map(c -> {
                        if (c == null || !c.applicationId.equals(caller.ownerId()) || !c.mode.equals(caller.mode())) {
                            throw ApiException.invalid("starting_after", "starting_after must be the id of one of your payment intents");
                        }
                        return c;
                    });
            return cursor.chain(c -> {
                StringBuilder q = new StringBuilder("applicationId = :app and mode = :mode");
                io.quarkus.panache.common.Parameters p = io.quarkus.panache.common.Parameters
                        .with("app", caller.ownerId()).and("mode", caller.mode());
                if (status != null) {
                    q.append(" and status = :status");
                    p = p.and("status", status);
                }
                if (c != null) {
                    q.append(" and (createdAt < :cAt or (createdAt = :cAt and id < :cId))");
                    p = p.and("cAt", c.createdAt).and("cId", c.id);
                }
                q.append(" order by createdAt desc, id desc");
                return PaymentIntent.<PaymentIntent>find(q.toString(), p).range(0, n).list();
            });
        }).map(rows -> {
            boolean more = rows.size() > n;
            List<Views.PaymentIntentView> data = rows.stream().limit(n).map(pi -> Views.of(pi, publicBaseUrl)).toList();
            return Views.ListView.of(data, more);
        });
    }

    // ---------------------------------------------------------------- cancel, capture

    public Uni<PaymentIntent> cancel(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> lock(id).map(pi -> owned(caller, pi, id)).chain(pi -> {
            if (pi.status.equals(REQUIRES_CAPTURE)) {
                return openAttempts(pi.id).chain(open -> {
                    if (open > 0) {
                        throw unexpected(pi, "cancel", "a capture is in progress");
                    }
                    return authorization(pi.id).chain(auth -> recordAttempt(pi, "release", auth == null ? "test_card" : auth.paymentMethod,
                                    pi.amount, null))
                            .chain(() -> move(pi, CANCELLED, EventTypes.PI_CANCELLED));
                });
            }
            if (!pi.status.equals(REQUIRES_PAYMENT_METHOD) && !pi.status.equals(REQUIRES_ACTION)) {
                throw unexpected(pi, "cancel", null);
            }
            return move(pi, CANCELLED, EventTypes.PI_CANCELLED);
        })).call(this::releaseOpenReleases);
    }

    /** After commit: asks the rail to release the reservation of a cancelled manual-capture intent. */
    private Uni<Void> releaseOpenReleases(PaymentIntent pi) {
        return Panache.withSession(() -> PaymentAttempt.<PaymentAttempt>find(
                        "paymentIntentId = ?1 and kind = 'release' and status = 'started'", pi.id).list())
                .chain(list -> list.isEmpty() ? Uni.createFrom().voidItem() : runAttempt(list.get(0)));
    }

    public Uni<PaymentIntent> capture(ApiPrincipal caller, String id, String amountToCapture) {
        return Panache.withTransaction(() -> lock(id).map(pi -> owned(caller, pi, id)).chain(pi -> {
            if (!pi.status.equals(REQUIRES_CAPTURE)) {
                throw unexpected(pi, "capture", null);
            }
            BigDecimal amount = amountToCapture == null ? pi.amount : Money.parse("amount_to_capture", amountToCapture);
            if (amount.compareTo(pi.amount) > 0) {
                throw ApiException.invalid("amount_to_capture", "amount_to_capture must not exceed the amount " + Money.text(pi.amount));
            }
            return openAttempts(pi.id).chain(open -> {
                if (open > 0) {
                    throw unexpected(pi, "capture", "a capture is already in progress");
                }
                return authorization(pi.id).chain(auth -> recordAttempt(pi, "capture", auth.paymentMethod, amount, null));
            });
        })).chain(this::runAttempt).chain(() -> get(caller, id));
    }

    // ---------------------------------------------------------------- the payment flow (hosted page, test helpers)

    /** The customer (or a test helper) pays with {@code method}; in test mode {@code scenario} picks the outcome. */
    public Uni<PaymentIntent> pay(String intentId, String method, String scenario) {
        return Panache.withSession(() -> PaymentIntent.<PaymentIntent>findById(intentId)).chain(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + intentId);
            }
            if ("test".equals(pi.mode)) {
                if (scenario == null || !ht.platform.checkout.provider.SimulatorProvider.SCENARIOS.contains(scenario)) {
                    throw ApiException.invalid("outcome", "outcome must be one of " + ht.platform.checkout.provider.SimulatorProvider.SCENARIOS);
                }
            }
            PaymentRails.Method m = rails.method(pi.mode, method, pi.currency).orElseThrow(
                    () -> ApiException.invalid("payment_method", "payment_method '" + method + "' is not offered for this payment"));
            if (!m.available()) {
                throw new ApiException(409, "PAYMENT_METHOD_UNAVAILABLE", "This payment method is unavailable right now; choose another", "payment_method");
            }
            if (!m.provider().supports(pi.amount, pi.currency, "manual".equals(pi.captureMethod))) {
                throw ApiException.invalid("payment_method", "payment_method '" + method + "' cannot carry this payment's amount,"
                        + " currency or capture method");
            }
            boolean fromAction = pi.status.equals(REQUIRES_ACTION);
            Uni<Boolean> needsAction = fromAction ? Uni.createFrom().item(false)
                    : rails.call(m.provider(), () -> m.provider().requiresAction(method, scenario)
                            .map(b -> b ? ProviderResult.pending() : ProviderResult.succeeded()))
                    .map(r -> r.status() == ProviderResult.Status.PENDING);
            return needsAction.chain(action -> action
                    ? Panache.withTransaction(() -> lock(intentId).chain(locked -> {
                        checkPayable(locked, false);
                        locked.paymentMethod = method;
                        return move(locked, REQUIRES_ACTION, null);
                    }))
                    : startAuthorization(intentId, m, "requires_action".equals(scenario) ? "succeeded" : scenario)
                            .chain(this::runAttempt).chain(() -> reload(intentId)));
        });
    }

    /** The customer completes (approve) or fails (decline) the extra verification. */
    public Uni<PaymentIntent> completeAction(String intentId, boolean approved, String scenario) {
        return Panache.withSession(() -> PaymentIntent.<PaymentIntent>findById(intentId)).chain(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + intentId);
            }
            if (!approved) {
                return Panache.withTransaction(() -> lock(intentId).chain(locked -> {
                    if (!locked.status.equals(REQUIRES_ACTION)) {
                        throw unexpected(locked, "complete the verification of", null);
                    }
                    locked.lastErrorCode = "authentication_failed";
                    locked.lastErrorMessage = "The customer did not complete the verification";
                    return move(locked, FAILED, EventTypes.PI_FAILED);
                }));
            }
            if (!pi.status.equals(REQUIRES_ACTION)) {
                throw unexpected(pi, "complete the verification of", null);
            }
            return pay(intentId, pi.paymentMethod, scenario == null && "test".equals(pi.mode) ? "succeeded" : scenario);
        });
    }

    private void checkPayable(PaymentIntent pi, boolean allowAction) {
        boolean ok = pi.status.equals(REQUIRES_PAYMENT_METHOD) || (allowAction && pi.status.equals(REQUIRES_ACTION));
        if (!ok) {
            throw unexpected(pi, "pay", null);
        }
        if (!pi.expiresAt.isAfter(clock.instant())) {
            throw unexpected(pi, "pay", "it has expired");
        }
    }

    private Uni<PaymentAttempt> startAuthorization(String intentId, PaymentRails.Method m, String scenario) {
        return Panache.withTransaction(() -> lock(intentId).chain(pi -> {
            checkPayable(pi, true);
            pi.paymentMethod = m.info().id();
            pi.lastErrorCode = null;
            pi.lastErrorMessage = null;
            return move(pi, PROCESSING, EventTypes.PI_PROCESSING)
                    .chain(p -> recordAttempt(p, "authorize", m.info().id(), p.amount, scenario));
        }));
    }

    private Uni<PaymentAttempt> recordAttempt(PaymentIntent pi, String kind, String method, BigDecimal amount, String scenario) {
        return recordAttempt(pi, kind, method, amount, scenario, null);
    }

    private Uni<PaymentAttempt> recordAttempt(PaymentIntent pi, String kind, String method, BigDecimal amount, String scenario,
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
        a.createdAt = now();
        a.updatedAt = a.createdAt;
        return a.persist();
    }

    /**
     * Makes (or repeats, with the same attempt id) the provider call of a recorded attempt, outside any
     * transaction, then records the answer. Used by the request flow and by the reconciler.
     */
    public Uni<Void> runAttempt(PaymentAttempt attempt) {
        PaymentProvider provider = rails.provider(attempt.provider).orElse(null);
        if (provider == null) {
            return Uni.createFrom().voidItem();
        }
        return callFor(provider, attempt).chain(result -> recordResult(attempt.id, result));
    }

    /** Reconciler: asks the provider what became of an attempt whose answer was pending or ambiguous. */
    public Uni<Void> lookupAttempt(PaymentAttempt attempt) {
        PaymentProvider provider = rails.provider(attempt.provider).orElse(null);
        if (provider == null) {
            return Uni.createFrom().voidItem();
        }
        // NOT_FOUND: the rail never received the call; repeat it with the same attempt id (idempotent) to get an answer.
        // A rail that only knows completed payments (MonCash) answers NOT_FOUND as a fact: apply() decides with it.
        return rails.call(provider, () -> provider.lookup(attempt.id)).chain(result -> result.status() == ProviderResult.Status.NOT_FOUND
                        && provider.repeatsUnansweredCalls()
                ? callFor(provider, attempt).chain(again -> recordResult(attempt.id, again))
                : recordResult(attempt.id, result));
    }

    private Uni<ProviderResult> callFor(PaymentProvider provider, PaymentAttempt a) {
        return switch (a.kind) {
            case "authorize" -> Panache.withSession(() -> PaymentIntent.<PaymentIntent>findById(a.paymentIntentId))
                    .chain(pi -> rails.call(provider, () -> provider.authorize(a.id, a.paymentMethod, a.amount, pi.currency,
                            "automatic".equals(pi.captureMethod), a.scenario)));
            default -> Panache.withSession(() -> authorization(a.paymentIntentId)
                            .chain(auth -> PaymentIntent.<PaymentIntent>findById(a.paymentIntentId)
                                    .map(pi -> new Object[] {auth, pi})))
                    .chain(pair -> {
                        PaymentAttempt auth = (PaymentAttempt) pair[0];
                        PaymentIntent pi = (PaymentIntent) pair[1];
                        String authId = a.reversesAttemptId != null ? a.reversesAttemptId : auth == null ? a.paymentIntentId : auth.id;
                        return rails.call(provider, () -> switch (a.kind) {
                            case "capture" -> provider.capture(a.id, authId, a.amount);
                            case "release" -> provider.release(a.id, authId);
                            default -> provider.refund(a.id, authId, a.amount, pi.currency);
                        });
                    });
        };
    }

    /** Records a provider answer for an attempt and moves the intent accordingly (one transaction, row lock). */
    Uni<Void> recordResult(String attemptId, ProviderResult result) {
        return recordResult(attemptId, result, false);
    }

    /** {@code customerPaid}: the customer came back from the rail's page saying they paid (not a proof of anything). */
    Uni<Void> recordResult(String attemptId, ProviderResult result, boolean customerPaid) {
        return Panache.withTransaction(() -> PaymentAttempt.<PaymentAttempt>findById(attemptId).chain(a ->
                lock(a.paymentIntentId).chain(pi -> PaymentAttempt.<PaymentAttempt>findById(attemptId, LockModeType.PESSIMISTIC_WRITE)
                        .chain(attempt -> apply(attempt, pi, result, customerPaid))))).replaceWithVoid();
    }

    private Uni<?> apply(PaymentAttempt a, PaymentIntent pi, ProviderResult r0, boolean customerPaid) {
        if (a.status.equals("succeeded") || a.status.equals("failed")) {
            return Uni.createFrom().voidItem(); // already concluded
        }
        a.updatedAt = now();
        ProviderResult r = r0;
        if (a.kind.equals("authorize") && rails.provider(a.provider).map(p -> !p.repeatsUnansweredCalls()).orElse(false)) {
            Uni<?> redirectStep = applyRedirectRail(a, pi, r0, customerPaid);
            if (redirectStep != null) {
                return redirectStep;
            }
            r = concludeRedirectRail(a, r0);
        }
        switch (r.status()) {
            case PENDING -> a.status = "pending";
            case UNKNOWN, NOT_FOUND -> a.status = a.status.equals("pending") ? "pending" : "unknown";
            case SUCCEEDED -> a.status = "succeeded";
            case FAILED -> {
                a.status = "failed";
                a.failureCode = r.failureCode();
            }
        }
        return switch (a.kind) {
            case "authorize" -> applyAuthorization(a, pi, r);
            case "capture" -> {
                if (r.status() == ProviderResult.Status.SUCCEEDED && pi.status.equals(REQUIRES_CAPTURE)) {
                    pi.amountReceived = a.amount;
                    yield move(pi, SUCCEEDED, EventTypes.PI_SUCCEEDED);
                }
                yield Uni.createFrom().voidItem();
            }
            default -> Uni.createFrom().voidItem(); // release, reversal: only the attempt row changes
        };
    }

    /**
     * A rail whose customer pays on the rail's own page (MonCash). Handles what only such a rail answers and returns
     * null when the ordinary rules apply: REDIRECT (the customer is sent there), NOT_FOUND while the customer can
     * still pay, and a collected amount that is not the amount expected (never credited; given back).
     */
    private Uni<?> applyRedirectRail(PaymentAttempt a, PaymentIntent pi, ProviderResult r, boolean customerPaid) {
        switch (r.status()) {
            case REDIRECT -> {
                a.status = "pending";
                a.redirectUrl = r.redirectUrl();
                a.redirectExpiresAt = r.redirectExpiresAt() != null ? r.redirectExpiresAt() : now().plus(Duration.ofMinutes(10));
                return pi.status.equals(PROCESSING) ? move(pi, REQUIRES_ACTION, null) : Uni.createFrom().voidItem();
            }
            case NOT_FOUND -> {
                if (a.redirectUrl == null || !payableAtRail(a)) {
                    return null; // concluded as failed below
                }
                a.status = "pending"; // the customer can still pay on the rail's page
                if (pi.status.equals(PROCESSING)) {
                    return move(pi, customerPaid ? PROVIDER_PENDING : REQUIRES_ACTION, null);
                }
                return Uni.createFrom().voidItem();
            }
            case SUCCEEDED -> {
                a.providerReference = r.providerReference();
                if (r.reportedAmount() != null && r.reportedAmount().compareTo(a.amount) != 0) {
                    a.status = "failed";
                    a.failureCode = "amount_mismatch";
                    Uni<?> giveBack = recordAttempt(pi, "reversal", a.paymentMethod, r.reportedAmount(), null, a.id);
                    if (pi.status.equals(PROCESSING) || pi.status.equals(PROVIDER_PENDING) || pi.status.equals(PROVIDER_UNKNOWN)) {
                        pi.lastErrorCode = "amount_mismatch";
                        pi.lastErrorMessage = "The payment rail collected " + Money.text(r.reportedAmount()) + " instead of "
                                + Money.text(a.amount) + "; it is given back";
                        return giveBack.chain(() -> move(pi, FAILED, EventTypes.PI_FAILED));
                    }
                    return giveBack;
                }
                if (pi.status.equals(REQUIRES_ACTION)) {
                    // paid on the rail's page without coming back: the payment completes all the same
                    a.status = "succeeded";
                    return move(pi, PROCESSING, null).chain(p -> applyAuthorization(a, p, r));
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    /** The rail's NOT_FOUND once nobody can pay any more: it did not happen. */
    private ProviderResult concludeRedirectRail(PaymentAttempt a, ProviderResult r) {
        if (r.status() != ProviderResult.Status.NOT_FOUND) {
            return r;
        }
        return a.redirectUrl == null
                ? ProviderResult.failed("payment_not_created", "The payment rail shows no payment; nothing was debited")
                : ProviderResult.failed("payment_not_completed", "The customer did not pay before the payment page expired; nothing was debited");
    }

    /** The rail's page still takes the payment (with a margin for clocks that disagree). */
    private boolean payableAtRail(PaymentAttempt a) {
        return a.redirectExpiresAt != null && clock.instant().isBefore(a.redirectExpiresAt.plus(RAIL_CLOCK_MARGIN));
    }

    private static final Duration RAIL_CLOCK_MARGIN = Duration.ofMinutes(5);

    private Uni<?> applyAuthorization(PaymentAttempt a, PaymentIntent pi, ProviderResult r) {
        boolean inFlight = pi.status.equals(PROCESSING) || pi.status.equals(PROVIDER_PENDING) || pi.status.equals(PROVIDER_UNKNOWN);
        switch (r.status()) {
            case SUCCEEDED -> {
                if (!inFlight) {
                    // money moved for a payment that can no longer complete: give it back
                    return recordAttempt(pi, "reversal", a.paymentMethod, a.amount, null, a.id);
                }
                if ("manual".equals(pi.captureMethod)) {
                    return move(pi, REQUIRES_CAPTURE, null);
                }
                pi.amountReceived = pi.amount;
                return move(pi, SUCCEEDED, EventTypes.PI_SUCCEEDED);
            }
            case FAILED -> {
                if (!inFlight) {
                    return Uni.createFrom().voidItem();
                }
                pi.lastErrorCode = r.failureCode() == null ? "payment_failed" : r.failureCode();
                pi.lastErrorMessage = r.failureMessage();
                return move(pi, FAILED, EventTypes.PI_FAILED);
            }
            case PENDING -> {
                return pi.status.equals(PROCESSING) ? move(pi, PROVIDER_PENDING, null) : Uni.createFrom().voidItem();
            }
            default -> {
                // ambiguous: money may have moved; never concluded as failed here
                return pi.status.equals(PROCESSING) ? move(pi, PROVIDER_UNKNOWN, null) : Uni.createFrom().voidItem();
            }
        }
    }

    // ---------------------------------------------------------------- expiry

    public Uni<Integer> expireDue() {
        Instant now = clock.instant();
        return Panache.withSession(() -> PaymentIntent.<PaymentIntent>find(
                        "status in ('requires_payment_method', 'requires_action') and expiresAt <= ?1", now)
                .range(0, 199).list())
                .chain(due -> {
                    Uni<Integer> chain = Uni.createFrom().item(0);
                    for (PaymentIntent d : due) {
                        chain = chain.chain(count -> Panache.withTransaction(() -> lock(d.id).chain(pi -> {
                            if ((pi.status.equals(REQUIRES_PAYMENT_METHOD) || pi.status.equals(REQUIRES_ACTION))
                                    && !pi.expiresAt.isAfter(clock.instant())) {
                                return move(pi, EXPIRED, EventTypes.PI_EXPIRED).replaceWith(count + 1);
                            }
                            return Uni.createFrom().item(count);
                        })));
                    }
                    return chain;
                });
    }

    // ---------------------------------------------------------------- helpers

    public Uni<PaymentIntent> reload(String id) {
        return Panache.withSession(() -> PaymentIntent.<PaymentIntent>findById(id));
    }

    public Uni<PaymentIntent> bySession(String sessionId) {
        return Panache.withSession(() -> PaymentIntent.<PaymentIntent>find("sessionId", sessionId).firstResult());
    }

    Uni<PaymentIntent> lock(String id) {
        return PaymentIntent.<PaymentIntent>findById(id, LockModeType.PESSIMISTIC_WRITE).map(pi -> {
            if (pi == null) {
                throw ApiException.notFound("Payment intent " + id);
            }
            return pi;
        });
    }

    Uni<PaymentAttempt> authorization(String intentId) {
        return PaymentAttempt.<PaymentAttempt>find("paymentIntentId = ?1 and kind = 'authorize' and status = 'succeeded'", intentId)
                .firstResult();
    }

    private Uni<Long> openAttempts(String intentId) {
        return PaymentAttempt.count("paymentIntentId = ?1 and kind in ('capture', 'release') and status in ('started', 'pending', 'unknown')",
                intentId);
    }

    /** A checked transition (and its event, in the same transaction). */
    Uni<PaymentIntent> move(PaymentIntent pi, String to, String eventType) {
        if (!pi.status.equals(to) && !canMove(pi.status, to)) {
            throw unexpected(pi, "move to " + to, null);
        }
        pi.status = to;
        pi.updatedAt = now();
        return eventType == null ? Uni.createFrom().item(pi)
                : Panache.getSession().chain(s -> s.flush()).chain(() -> outbox.paymentIntentEvent(pi, eventType)).replaceWith(pi);
    }

    static PaymentIntent owned(ApiPrincipal caller, PaymentIntent pi, String id) {
        if (pi == null || !pi.applicationId.equals(caller.ownerId()) || !pi.mode.equals(caller.mode())) {
            throw ApiException.notFound("Payment intent " + id);
        }
        return pi;
    }

    static ApiException unexpected(PaymentIntent pi, String action, String why) {
        return new ApiException(409, UNEXPECTED_STATE, "Cannot " + action + " a payment intent in status '" + pi.status + "'"
                + (why == null ? "" : ": " + why));
    }


    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    Duration staleAfterDefault() {
        return Duration.ofMinutes(2);
    }
}
