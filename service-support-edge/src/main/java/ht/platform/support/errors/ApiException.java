package ht.platform.support.errors;

import java.util.Map;

/** A client-visible failure: HTTP status, stable error code, message and optional parameter name. */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String param;
    private final Map<String, String> headers;
    private final Map<String, String> more;

    public ApiException(int status, String code, String message) {
        this(status, code, message, null, Map.of());
    }

    public ApiException(int status, String code, String message, String param) {
        this(status, code, message, param, Map.of());
    }

    public ApiException(int status, String code, String message, String param, Map<String, String> headers) {
        this(status, code, message, param, headers, Map.of());
    }

    /** @param more fields of the error object beside code, message and param, for the caller to act on */
    public ApiException(int status, String code, String message, String param, Map<String, String> headers,
                        Map<String, String> more) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.param = param;
        this.headers = headers;
        this.more = more;
    }

    public int status() { return status; }
    public String code() { return code; }
    public String param() { return param; }
    public Map<String, String> headers() { return headers; }
    public Map<String, String> more() { return more; }

    public static ApiException invalid(String param, String message) {
        return new ApiException(400, "INVALID_REQUEST", message, param);
    }

    public static ApiException notFound(String what) {
        return new ApiException(404, "NOT_FOUND", what + " not found");
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
    }
}
