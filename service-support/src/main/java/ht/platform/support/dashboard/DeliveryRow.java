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

    /** An attempt as a service's API shows it: the components of its attempt view, in its own time format. */
    public interface Attempt {

        int attempt_number();

        String attempted_at();

        boolean success();

        Integer status_code();

        long latency_ms();

        String error();

        String response_excerpt();

        /** Where it went, when the view says so per attempt. */
        default String url() {
            return null;
        }
    }

    /** A delivery's attempts as the pages show them; {@code url} where an attempt does not say where it went. */
    public static List<AttemptRow> attempts(List<? extends Attempt> attempts, String url) {
        return attempts.stream().map(a -> new AttemptRow(a.attempt_number(), a.attempted_at(), a.url() == null ? url : a.url(),
                a.success(), a.status_code(), a.latency_ms(), a.error(), a.response_excerpt())).toList();
    }
}
