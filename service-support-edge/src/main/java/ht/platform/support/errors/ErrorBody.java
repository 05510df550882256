package ht.platform.support.errors;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.Map;

/**
 * The one error shape of every non-2xx answer: {"error":{"code","message","param"?,"request_id"}}, plus the few
 * fields an error names for the caller to act on (e.g. {@code oldest_cursor} of CURSOR_EXPIRED).
 */
@RegisterForReflection
public record ErrorBody(Detail error) {

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Detail(String code, String message, String param, @JsonProperty("request_id") String requestId,
                         @JsonIgnore Map<String, String> more) {

        @JsonAnyGetter
        public Map<String, String> anyMore() {
            return more;
        }
    }

    public static ErrorBody of(String code, String message, String param, String requestId) {
        return of(code, message, param, requestId, Map.of());
    }

    public static ErrorBody of(String code, String message, String param, String requestId, Map<String, String> more) {
        return new ErrorBody(new Detail(code, message, param, requestId, more));
    }
}
