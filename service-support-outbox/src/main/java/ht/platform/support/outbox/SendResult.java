package ht.platform.support.outbox;

/** What one delivery attempt got back: success is a 2xx answer and nothing else. */
public record SendResult(boolean success, Integer statusCode, long latencyMillis, String error, String responseExcerpt) {

    public static SendResult answered(int status, long latencyMillis, String excerpt) {
        boolean ok = status >= 200 && status < 300;
        return new SendResult(ok, status, latencyMillis, ok ? null : describe(status), excerpt);
    }

    public static SendResult failed(String error, long latencyMillis) {
        return new SendResult(false, null, latencyMillis, error, null);
    }

    private static String describe(int status) {
        return status >= 300 && status < 400 ? "redirect " + status + " not followed" : "HTTP " + status;
    }
}
