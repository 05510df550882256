package ht.platform.wallet.service;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.StatusWords;
import io.quarkus.runtime.annotations.RegisterForReflection;
import ht.platform.support.time.Timestamps;
import ht.platform.wallet.model.MonCashOrder;
import ht.platform.wallet.model.Payment;
import ht.platform.support.outbox.Address;
import ht.platform.wallet.model.Withdrawal;

import java.util.List;

/** The JSON shapes of the public API (snake_case component names are the JSON names). */
@RegisterForReflection(ignoreNested = false)
public final class Views {

    private Views() { }

    public record PaymentView(String id, String object, String status, long amount, long fee, long total,
                              String currency, String reference, @Schema(nullable = true) String description,
                              @Schema(nullable = true) String return_url, String mode,
                              String wallet_url, String created_at, String expires_at, @Schema(nullable = true) String paid_at,
                              @Schema(nullable = true) String failure_reason) {
        public static PaymentView of(Payment p, String walletUrl) {
            return new PaymentView(p.id, "payment", p.status, p.amount, p.fee, p.total, p.currency, p.reference,
                    p.description, p.returnUrl, p.mode, walletUrl, Timestamps.millis(p.createdAt),
                    Timestamps.millis(p.expiresAt), Timestamps.millis(p.paidAt), p.failureReason);
        }
    }

    /** A MonCash payment (orderId) of a live payment: open until MonCash settles it; money that credits nothing goes back. */
    public record MonCashOrderView(String id, String object, String payment, String status, String transaction_id,
                                   String collected, String given_back, String created_at, String settled_at) {
        public static MonCashOrderView of(MonCashOrder o) {
            return new MonCashOrderView(o.id, "moncash_order", o.paymentId, o.settledAt == null ? "open" : o.outcome,
                    o.transactionId, o.collected == null ? null : o.collected.stripTrailingZeros().toPlainString(), o.givenBack,
                    Timestamps.millis(o.createdAt), Timestamps.millis(o.settledAt));
        }
    }

    public record Destination(String type, String msisdn) { }

    public record WithdrawalView(String id, String object, String status, long amount, long fee, long total,
                                 String currency, Destination destination, @Schema(nullable = true) String reference,
                                 String mode, String created_at, @Schema(nullable = true) String completed_at,
                                 @Schema(nullable = true) String failure_reason, @Schema(nullable = true) String failure_message) {
        public static WithdrawalView of(Withdrawal w) {
            return new WithdrawalView(w.id, "withdrawal", w.status, w.amount, w.fee, w.total, w.currency,
                    new Destination(w.destinationType, mask(w.msisdn)), w.reference, w.mode,
                    Timestamps.millis(w.createdAt), Timestamps.millis(w.completedAt), w.failureReason, w.failureMessage);
        }
    }

    public record BalanceView(String object, long available, long reserved, String currency, String mode) { }

    public record ListView<T>(String object, List<T> data, boolean has_more) {
        public static <T> ListView<T> of(List<T> data, boolean hasMore) {
            return new ListView<>("list", data, hasMore);
        }
    }

    public record WebhookView(String id, String object, String url, List<String> events, String status, String mode,
                              String delivery, String created_at, String paused_at, int consecutive_failures) {
        public static WebhookView of(Address a) {
            return new WebhookView(a.id(), "webhook_endpoint", a.url(), a.events(), status(a), a.mode(), a.kind(),
                    Timestamps.millis(a.createdAt()), Timestamps.millis(a.pausedAt()), a.consecutiveFailures());
        }

        /** The gateway's word for an address: active, or paused by the pause rule. */
        public static String status(Address a) {
            return a.paused() ? "paused" : "active";
        }
    }

    /** The only shapes that carry a signing secret: registration and rotation answers. */
    public record WebhookCreated(String id, String object, String url, List<String> events, String status, String mode,
                                 String delivery, String secret, String created_at) { }

    public record SecretRotated(String id, String object, String secret, String previous_secret_expires_at) { }

    public record AttemptView(int attempt_number, String attempted_at, boolean success, Integer status_code,
                              long latency_ms, String error, String response_excerpt) implements DeliveryRow.Attempt {
        public static AttemptView of(DeliveryLog.Attempt a) {
            return new AttemptView(a.attemptNumber(), Timestamps.millis(a.attemptedAt()), a.success(), a.statusCode(),
                    a.latencyMs(), a.error(), a.responseExcerpt());
        }
    }

    public record DeliveryView(String id, String object, String webhook_id, String event_id, String event_type,
                               String status, int attempt_count, String next_attempt_at, String created_at,
                               String delivered_at, List<AttemptView> attempts) { }

    /** A recovered window: {@code resent} deliveries queued again; {@code replayed} when the window was asked before. */
    public record RecoveryView(String object, String webhook_id, String since, String until, int resent, boolean replayed,
                               String created_at) { }

    public record PingView(String id, String object, String event_id, String event_type, String webhook_id,
                           String status) { }

    public static DeliveryView delivery(DeliveryLog.Delivery d, StatusWords words, List<DeliveryLog.Attempt> attempts) {
        return new DeliveryView(d.id(), "webhook_delivery", d.destinationId(), d.eventId(), d.eventType(),
                words.word(d.status()), d.attempts(), d.pending() ? Timestamps.millis(d.nextAttemptAt()) : null,
                Timestamps.millis(d.createdAt()), Timestamps.millis(d.deliveredAt()),
                attempts.stream().map(AttemptView::of).toList());
    }

    /** Every digit but the last four hidden: +50937001234 -> +*******1234. */
    public static String mask(String msisdn) {
        if (msisdn == null) {
            return null;
        }
        int keep = 4;
        StringBuilder sb = new StringBuilder();
        int digitsSeen = 0;
        int digits = (int) msisdn.chars().filter(Character::isDigit).count();
        for (char c : msisdn.toCharArray()) {
            if (Character.isDigit(c)) {
                digitsSeen++;
                sb.append(digitsSeen > digits - keep ? c : '*');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
