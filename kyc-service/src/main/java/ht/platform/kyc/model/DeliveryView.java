package ht.platform.kyc.model;

import ht.platform.support.dashboard.DeliveryRow;
import ht.platform.support.outbox.DeliveryLog;
import ht.platform.support.outbox.StatusWords;
import ht.platform.support.time.Timestamps;

import java.util.List;

/** One webhook delivery as its application's dashboard shows it, with its attempts when it is shown alone. */
public record DeliveryView(String id, String event_id, String event_type, String status, int attempts,
                           String next_attempt_at, Integer last_status, String created_at, String delivered_at,
                           String dead_at, List<AttemptView> attempt_list) {

    public record AttemptView(int attempt_number, String attempted_at, String url, boolean success, Integer status_code,
                              long latency_ms, String error, String response_excerpt) implements DeliveryRow.Attempt { }

    public static DeliveryView of(DeliveryLog.Delivery d, StatusWords words, List<DeliveryLog.Attempt> attempts) {
        return new DeliveryView(d.id(), d.eventId(), d.eventType(), words.word(d.status()), d.attempts(),
                Timestamps.seconds(d.nextAttemptAt()), d.lastStatusCode(), Timestamps.seconds(d.createdAt()),
                Timestamps.seconds(d.deliveredAt()), Timestamps.seconds(d.deadAt()),
                attempts.stream().map(a -> new AttemptView(a.attemptNumber(), Timestamps.seconds(a.attemptedAt()), a.url(),
                        a.success(), a.statusCode(), a.latencyMs(), a.error(), a.responseExcerpt())).toList());
    }

    public boolean resendable() {
        return !StatusWords.PENDING.equals(status); // kyc's word for it is the outbox's (KycDeliveryPolicy)
    }
}
