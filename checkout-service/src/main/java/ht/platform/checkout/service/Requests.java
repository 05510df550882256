package ht.platform.checkout.service;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** Request bodies (unknown fields and wrong JSON types are 400; amounts are decimal text, never JSON numbers). */
public final class Requests {

    private Requests() { }

    @Schema(name = "CreatePaymentIntent")
    public record CreatePaymentIntent(
            @Schema(required = true, description = "decimal text > 0, at most 6 decimals; a JSON number is refused", examples = "125.50") String amount,
            @Schema(required = true, enumeration = {"HTG", "USD"}) String currency,
            @Schema(maxLength = 1000) String description,
            @Schema(maxLength = 200) String external_reference,
            @Schema(description = "absolute https URL (http only for localhost in test mode); display only") String return_url,
            @Schema(enumeration = {"automatic", "manual"}) String capture_method,
            @Schema(description = "300 to 86400 seconds, default 3600") Long expires_in) { }

    @Schema(name = "CapturePaymentIntent")
    public record Capture(@Schema(description = "decimal text ≤ amount; default the whole amount") String amount_to_capture) { }

    @Schema(name = "CreateRefund")
    public record CreateRefund(@Schema(required = true) String payment_intent,
                               @Schema(description = "decimal text; default what remains refundable") String amount,
                               @Schema(enumeration = {"requested_by_customer", "duplicate", "fraudulent"}) String reason) { }

    @Schema(name = "CreatePaymentLink")
    public record CreatePaymentLink(@Schema(required = true) String amount, @Schema(required = true) String currency,
                                    String description, String external_reference, String return_url) { }

    @Schema(name = "CreateWebhookEndpoint")
    public record CreateWebhookEndpoint(@Schema(description = "https URL; required unless delivery is pull") String url,
                                        @Schema(description = "event types; default all") List<String> events,
                                        @Schema(description = "push (default): sent to url; pull: read from GET /events?after=",
                                                enumeration = {"push", "pull"}) String delivery) { }

    @Schema(name = "RecoverWindow")
    public record RecoverWindow(@Schema(required = true, description = "ISO-8601 time") String since,
                                @Schema(required = true, description = "ISO-8601 time") String until) { }

    @Schema(name = "SimulatePayment")
    public record Simulate(@Schema(required = true, enumeration = {"test_card", "test_wallet"}) String payment_method,
                           @Schema(required = true, enumeration = {"succeeded", "failed", "requires_action", "provider_pending",
                                   "provider_unknown_then_succeeded", "provider_unknown_then_failed"}) String outcome) { }

    @Schema(name = "SettlePending")
    public record Settle(@Schema(required = true, enumeration = {"succeeded", "failed"}) String outcome) { }
}
