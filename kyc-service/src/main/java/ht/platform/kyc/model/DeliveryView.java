package ht.platform.kyc.model;

import java.util.List;

/** One webhook delivery as its application's dashboard shows it, with its attempts when it is shown alone. */
public record DeliveryView(String id, String event_id, String event_type, String status, int attempts,
                           String next_attempt_at, Integer last_status, String created_at, String delivered_at,
                           String dead_at, List<AttemptView> attempt_list) {

    public record AttemptView(int attempt_number, String attempted_at, String url, boolean success, Integer status_code,
                              long latency_ms, String error, String response_excerpt) { }

    public boolean resendable() {
        return !"pending".equals(status);
    }
}
