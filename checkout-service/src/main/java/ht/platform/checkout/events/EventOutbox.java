package ht.platform.checkout.events;

import ht.platform.checkout.model.PaymentIntent;
import ht.platform.checkout.model.Refund;
import ht.platform.checkout.model.Money;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.outbox.NewEvent;
import ht.platform.support.outbox.OutboxWriter;
import ht.platform.support.outbox.OutboxWriter.EventSubject;
import ht.platform.support.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes an event and its deliveries (one per subscribed endpoint) inside the caller's transaction, and
 * notifies the delivery loop; Postgres delivers the notification only if that transaction commits.
 */
@ApplicationScoped
public class EventOutbox {

    @Inject
    OutboxWriter writer;

    @Inject
    CheckoutDeliveryPolicy policy;


    public Uni<NewEvent> paymentIntentEvent(PaymentIntent pi, String type) {
        return record(pi.applicationId, pi.mode, type, pi.id, paymentIntentData(pi));
    }

    /** The event of an intent written in the same statement ({@link OneStatementCreate}), its parameters from {@code $from}. */
    public OutboxWriter.InOneStatement paymentIntentInOne(PaymentIntent pi, String type, int from) {
        return writer.inOneStatement(policy, new EventSubject(pi.applicationId, pi.mode, type, pi.id),
                envelope(type, pi.mode, paymentIntentData(pi)), OneStatementCreate.ROW, from);
    }

    /** The {@code data} of a payment intent's event. */
    public static Map<String, Object> paymentIntentData(PaymentIntent pi) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", pi.id);
        data.put("object", "payment_intent");
        data.put("status", pi.status);
        data.put("amount", Money.text(pi.amount));
        data.put("amount_received", Money.text(pi.amountReceived));
        data.put("amount_refunded", Money.text(pi.amountRefunded));
        data.put("currency", pi.currency);
        data.put("external_reference", pi.externalReference);
        data.put("payment_method", pi.paymentMethod);
        return data;
    }

    public Uni<NewEvent> refundEvent(Refund r, PaymentIntent pi, String type) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", r.id);
        data.put("object", "refund");
        data.put("status", r.status);
        data.put("amount", Money.text(r.amount));
        data.put("currency", r.currency);
        data.put("external_reference", pi.externalReference);
        data.put("payment_method", pi.paymentMethod);
        data.put("payment_intent", r.paymentIntentId);
        data.put("reason", r.reason);
        data.put("failure_reason", r.failureReason);
        return record(r.applicationId, r.mode, type, r.id, data);
    }

    private Uni<NewEvent> record(String applicationId, String mode, String type, String objectId, Map<String, Object> data) {
        EventSubject subject = new EventSubject(applicationId, mode, type, objectId);
        return Panache.getSession().chain(session -> writer.publish(session, policy, subject, envelope(type, mode, data)));
    }

    private static OutboxWriter.Envelope envelope(String type, String mode, Map<String, Object> data) {
        return (id, at) -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", id);
            body.put("type", type);
            body.put("mode", mode);
            body.put("created_at", Timestamps.seconds(at));
            body.put("data", data);
            return body;
        };
    }
}
