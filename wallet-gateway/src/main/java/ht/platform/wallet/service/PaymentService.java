package ht.platform.wallet.service;

import ht.platform.support.http.PublicUrls;
import ht.platform.support.time.DatabaseTime;
import ht.platform.wallet.model.PaymentStatus;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.http.Paging;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.idempotency.OneStatementCreate.Creation;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import ht.platform.wallet.config.WalletSettings;
import ht.platform.wallet.events.EventOutbox;
import ht.platform.wallet.model.MonCashOrderStore;
import ht.platform.wallet.model.Payment;
import ht.platform.wallet.model.PaymentStore;
import ht.platform.wallet.provider.MonCashWallet;
import ht.platform.wallet.service.Views.ListView;
import ht.platform.wallet.service.Views.PaymentView;
import com.fasterxml.jackson.databind.util.RawValue;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Payments: creation with the fee rule, the status graph, the balance credit and the events. */
@ApplicationScoped
public class PaymentService {

    public static final String CURRENCY = "HTG";

    private static final int EXPIRY_BATCH = 200;

    public record CreatePayment(Long amount, String currency, String reference, String return_url, String description) { }

    @Inject
    PublicUrls urls;

    @Inject
    Clock clock;

    @Inject
    WalletSettings settings;

    @Inject
    EventOutbox events;

    @Inject
    BalanceService balances;

    @Inject
    Idempotency idempotency;

    @Inject
    OneStatementCreate creates;

    @Inject
    PaymentStore store;

    @Inject
    MonCashOrderStore orders;

    @Inject
    MonCashWallet moncash;


    public void validate(CreatePayment body) {
        MoneyRequests.bodyPresent(body);
        MoneyRequests.amount(body.amount(), settings.payments().maxAmount());
        if (body.currency() == null) {
            throw ApiException.invalid("currency", "currency is required");
        }
        if (!CURRENCY.equals(body.currency())) {
            throw ApiException.invalid("currency", "currency must be HTG");
        }
        MoneyRequests.reference(body.reference());
        if (body.description() != null && body.description().length() > 500) {
            throw ApiException.invalid("description", "description must be at most 500 characters");
        }
        if (body.return_url() != null) {
            if (body.return_url().length() > 2048) {
                throw ApiException.invalid("return_url", "return_url must be at most 2048 characters");
            }
            try {
                URI uri = new URI(body.return_url());
                if (!uri.isAbsolute() || uri.getHost() == null
                        || !Set.of("https", "http").contains(uri.getScheme().toLowerCase(java.util.Locale.ROOT))) {
                    throw ApiException.invalid("return_url", "return_url must be an absolute http(s) URL");
                }
            } catch (java.net.URISyntaxException e) {
                throw ApiException.invalid("return_url", "return_url must be an absolute http(s) URL");
            }
        }
    }

    /**
     * POST /api/v1/payments: idempotent by the optional key (the same key and body replay the first answer). The key,
     * the payment and its payment.created event are one statement ({@link OneStatementCreate}); the answer and the
     * event's object are the same JSON, written once.
     */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, CreatePayment body) {
        return creates.create(caller, idempotencyKey, false, () -> {
            validate(body);
            Payment p = newPayment(caller, body);
            String json = idempotency.write(view(p));
            RawValue object = new RawValue(json);
            return Creation.of(body, StoredResponse.fresh(201, json), PaymentStore.NEW, PaymentStore.newValues(p),
                    from -> events.inOneStatement(p, "payment.created", object, from));
        });
    }

    /** A new payment of the caller, not yet written. */
    Payment newPayment(ApiPrincipal caller, CreatePayment body) {
        Instant now = now();
        Payment p = new Payment();
        p.id = Ids.hex("pay_", 12);
        p.projectId = caller.ownerId();
        p.mode = caller.mode();
        p.status = "created";
        p.amount = body.amount();
        Fees.Charge charge = Fees.charge(p.amount, settings.payments().feeBasisPoints(), settings.payments().feeMinimum());
        p.fee = charge.fee();
        p.total = charge.total();
        p.currency = body.currency();
        p.reference = body.reference();
        p.description = body.description();
        p.returnUrl = body.return_url();
        p.pageToken = Ids.hex("wpt_", 24);
        p.createdAt = now;
        p.expiresAt = now.plus(settings.payments().expiresAfter());
        return p;
    }

    public Uni<PaymentView> get(ApiPrincipal caller, String id) {
        return store.readOwned(id, caller.ownerId(), caller.mode()).map(this::view);
    }

    public Uni<ListView<PaymentView>> list(ApiPrincipal caller, Paging paging) {
        return store.readPage(caller.ownerId(), caller.mode(), paging.startingAfter(), paging.limit() + 1).map(rows -> {
            boolean more = rows.size() > paging.limit();
            List<PaymentView> data = rows.stream().limit(paging.limit()).map(this::view).toList();
            return ListView.of(data, more);
        });
    }

    /** Test helpers and the hosted page: succeed | fail | expire. */
    public Uni<PaymentView> transition(ApiPrincipal caller, String id, String action) {
        return Panache.withTransaction(() -> store.lockOwned(id, caller.ownerId(), caller.mode()).chain(p -> apply(p, action))).map(this::view);
    }

    /** created|pending -> succeeded (credits amount) | failed | expired. */
    public Uni<Payment> apply(Payment p, String action) {
        if (p.isFinal()) {
            throw new ApiException(409, "PAYMENT_ALREADY_FINAL",
                    "Payment " + p.id + " is already " + p.status + "; a final state cannot change");
        }
        Instant now = now();
        String to = switch (action) {
            case "succeed" -> "succeeded";
            case "fail" -> "failed";
            case "expire" -> "expired";
            default -> throw new IllegalArgumentException(action);
        };
        if (!PaymentStatus.GRAPH.canMove(p.status, to)) {
            throw new ApiException(409, "INVALID_PAYMENT_STATE", "Payment " + p.id + " is " + p.status + "; it cannot become " + to);
        }
        switch (action) {
            case "succeed" -> {
                p.status = "succeeded";
                p.paidAt = now;
                return balances.credit(p.projectId, p.mode, p.currency, p.amount)
                        .chain(() -> publish(p, "payment.succeeded")).replaceWith(p);
            }
            case "fail" -> {
                p.status = "failed";
                p.failedAt = now;
                p.failureReason = "declined_by_wallet";
                return publish(p, "payment.failed").replaceWith(p);
            }
            case "expire" -> {
                p.status = "expired";
                p.expiredAt = now;
                return publish(p, "payment.expired").replaceWith(p);
            }
            default -> throw new IllegalArgumentException(action);
        }
    }

    /**
     * The hosted page was opened: created -> pending, or expiry when its time has passed. A live payment through
     * MonCash goes pending only when its customer is sent to MonCash ({@link #sentToWallet}). Runs in a transaction.
     */
    public Uni<Payment> opened(Payment p) {
        if (p.isFinal()) {
            return Uni.createFrom().item(p);
        }
        if (!now().isBefore(p.expiresAt)) {
            return expirable(p).chain(due -> due ? apply(p, "expire") : Uni.createFrom().item(p));
        }
        return viaMonCash(p) ? Uni.createFrom().item(p) : sentToWallet(p);
    }

    /** The hosted page of {@code token} was opened (see {@link #opened}): its payment as it now stands, or null. */
    public Uni<Payment> openPage(String token) {
        return Panache.withTransaction(() -> store.lockByToken(token).chain(p -> p == null ? Uni.createFrom().nullItem() : opened(p)));
    }

    /**
     * Test mode: the customer's simulated outcome ({@code succeed | fail}) on the hosted page of {@code token}. Answers
     * the payment, unchanged when it is live, or null when there is none.
     */
    public Uni<Payment> simulateOnPage(String token, String action) {
        return Panache.withTransaction(() -> store.lockByToken(token).chain(p -> p == null || !"test".equals(p.mode)
                ? Uni.createFrom().item(p)
                : opened(p).chain(open -> open.isFinal() ? Uni.createFrom().item(open) : apply(open, action))));
    }

    /** The customer was sent to their wallet: created -> pending (payment.pending). Runs in a transaction. */
    public Uni<Payment> sentToWallet(Payment p) {
        if (PaymentStatus.GRAPH.canMove(p.status, "pending")) {
            p.status = "pending";
            p.pendingAt = now();
            return publish(p, "payment.pending").replaceWith(p);
        }
        return Uni.createFrom().item(p);
    }

    /** A live payment is collected through MonCash when the rail is configured. */
    public boolean viaMonCash(Payment p) {
        return "live".equals(p.mode) && moncash.configured();
    }

    /** Due payments expire unless a MonCash order of theirs is still open: MonCash may yet show it paid. */
    private Uni<Boolean> expirable(Payment p) {
        return orders.anyOpen(p.id).map(open -> !open);
    }

    /** The payment of a hosted page under a row lock (in the caller's transaction), or null. */
    public Uni<Payment> lockByToken(String token) {
        return store.lockByToken(token);
    }

    /** Expires every due unpaid payment, each in its own transaction; returns how many. */
    public Uni<Integer> expireDue() {
        Instant now = now();
        return store.readExpired(now, EXPIRY_BATCH).chain(due -> Multi.createFrom().iterable(due)
                .onItem().transformToUniAndConcatenate(id -> Panache.withTransaction(() -> store.lock(id)
                        .chain(p -> p == null || p.isFinal() || now().isBefore(p.expiresAt) ? Uni.createFrom().item(0)
                                : expirable(p).chain(expires -> expires ? apply(p, "expire").replaceWith(1)
                                        : Uni.createFrom().item(0)))))
                .collect().with(Collectors.summingInt(Integer::intValue)));
    }

    public PaymentView view(Payment p) {
        return PaymentView.of(p, walletUrl(p));
    }

    public String walletUrl(Payment p) {
        String base = urls.base();
        return base + "/wallet/" + p.pageToken;
    }

    private Uni<Void> publish(Payment p, String type) {
        return events.publish(p.projectId, p.mode, type, p.id, view(p)).replaceWithVoid();
    }


    private Instant now() {
        return DatabaseTime.now(clock);
    }
}
