package ht.platform.support.dashboard;

import io.quarkus.qute.TemplateData;

import java.util.List;

/**
 * A webhook delivery as the shared delivery pages show it ({@code templates/dashboard/outbox}): each service builds
 * it from its own API view, in its own status words and time format, so the pages say what its API says.
 */
@TemplateData
public record DeliveryRow(String id, String event_id, String event_type, String destination_id, String status,
                          int attempt_count, Integer last_status, String next_attempt_at, String created_at,
                          String delivered_at, boolean resendable, List<AttemptRow> attempts) {

    @TemplateData
    public record AttemptRow(int attempt_number, String attempted_at, String url, boolean success, Integer status_code,
                             long latency_ms, String error, String response_excerpt) { }
}
