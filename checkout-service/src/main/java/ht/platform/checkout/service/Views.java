package ht.platform.checkout.service;

import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.support.outbox.Address;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.StatusWords;
import ht.platform.checkout.model.Money;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import ht.platform.checkout.model.Event;
import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.PaymentLink;
import ht.platform.checkout.model.Refund;
import ht.platform.support.time.Timestamps;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** The public JSON shapes (snake_case, amounts as six-decimal text, UTC timestamps). */
@RegisterForReflection(ignoreNested = false)
public final class Views {

    private Views() { }

    @Schema(name = "LastPaymentError")
    public record LastPaymentError(String code, String message) { }

    @Schema(name = "PaymentIntent", description = "A payment. Statuses: requires_payment_method, requires_action, processing,"
            + " provider_pending, provider_unknown, requires_capture, succeeded, failed, cancelled, expired,"
            + " partially_refunded, refunded.")
    public record PaymentIntentView(String id, String object, String status,
                                    @Schema(description = "decimal text, six decimals", examples = "125.500000") String amount,
                                    String amount_received, String amount_refunded, String currency, String mode,
                                    String capture_method, String description, String external_reference, String return_url,
                                    String payment_method, LastPaymentError last_payment_error, String created_at,
                                    String expires_at, String checkout_url) { }

    @Schema(name = "Refund", description = "Statuses: pending, succeeded, failed.")
    public record RefundView(String id, String object, String payment_intent, String amount, String currency,
                             String status, String reason, String failure_reason, String failure_message,
                             String created_at) { }

    @Schema(name = "PaymentLink")
    public record PaymentLinkView(String id, String object, String url, boolean active, String amount, String currency,
                                  String description, String external_reference, String return_url, String created_at) { }

    @Schema(name = "PaymentMethod")
    public record PaymentMethodView(String id, String object, String type, String name, List<String> currencies,
                                    boolean available) { }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "WebhookEndpoint", description = "secret is present only in the creation response")
    public record WebhookEndpointView(String id, String object, String url, List<String> events, String mode,
                                      String status, String delivery, String secret, String created_at) { }

    @Schema(name = "WebhookSecretRotated", description = "the new secret, shown only here; the previous one signs too until"
            + " previous_secret_expires_at")
    public record SecretRotated(String id, String object, String secret, String previous_secret_expires_at) { }

    @Schema(name = "WebhookRecovery", description = "resent deliveries queued again; replayed when the window was recovered before")
    public record RecoveryView(String object, String webhook_endpoint, String since, String until, int resent,
                               boolean replayed, String created_at) { }

    @Schema(name = "WebhookAttempt")
    public record AttemptView(int attempt_number, String attempted_at, boolean success, Integer status_code,
                              long latency_ms, String error, String response_excerpt) implements DeliveryRow.Attempt { }

    @Schema(name = "WebhookDelivery", description = "status: pending, succeeded, dead (dead letter)")
    public record DeliveryView(String id, String endpoint, String url, String status, int failed_attempts,
                               String next_attempt_at, List<AttemptView> attempts) { }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "Event")
    public record EventView(String id, String object, String type, String mode, String object_id, String created_at,
                            Object data, List<DeliveryView> deliveries) { }

    @Schema(name = "List")
    public record ListView<T>(String object, List<T> data, boolean has_more) {
        public static <T> ListView<T> of(List<T> data, boolean hasMore) {
            return new ListView<>("list", data, hasMore);
        }
    }

    public static PaymentIntentView of(PaymentIntent pi, String publicBaseUrl) {
        return new PaymentIntentView(pi.id, "payment_intent", pi.status, Money.text(pi.amount), Money.text(pi.amountReceived),
                Money.text(pi.amountRefunded), pi.currency, pi.mode, pi.captureMethod, pi.description, pi.externalReference,
                pi.returnUrl, pi.paymentMethod,
                pi.lastErrorCode == null ? null : new LastPaymentError(pi.lastErrorCode, pi.lastErrorMessage),
                Timestamps.seconds(pi.createdAt), Timestamps.seconds(pi.expiresAt), publicBaseUrl + "/pay/" + pi.sessionId);
    }

    public static RefundView of(Refund r) {
        return new RefundView(r.id, "refund", r.paymentIntentId, Money.text(r.amount), r.currency, r.status, r.reason,
                r.failureReason, r.failureMessage, Timestamps.seconds(r.createdAt));
    }

    public static PaymentLinkView of(PaymentLink l, String publicBaseUrl) {
        return new PaymentLinkView(l.id, "payment_link", publicBaseUrl + "/pay/l/" + l.id, l.active, Money.text(l.amount),
                l.currency, l.description, l.externalReference, l.returnUrl, Timestamps.seconds(l.createdAt));
    }

    public static WebhookEndpointView of(Address e, String secret) {
        return new WebhookEndpointView(e.id(), "webhook_endpoint", e.url(), e.events(), e.mode(), e.state(), e.kind(), secret,
                Timestamps.seconds(e.createdAt()));
    }

    public static DeliveryView of(DeliveryLog.Delivery d, StatusWords words, List<DeliveryLog.Attempt> attempts) {
        return new DeliveryView(d.id(), d.destinationId(), d.url(), words.word(d.status()), d.cycleFailures(),
                Timestamps.seconds(d.nextAttemptAt()), attempts.stream().map(a -> new AttemptView(a.attemptNumber(),
                        Timestamps.seconds(a.attemptedAt()), a.success(), a.statusCode(), a.latencyMs(), a.error(),
                        a.responseExcerpt())).toList());
    }

    public static EventView of(Event e, Object data, List<DeliveryView> deliveries) {
        return new EventView(e.id, "event", e.type, e.mode, e.objectId, Timestamps.seconds(e.createdAt), data, deliveries);
    }
}
