package ht.platform.support.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** The one error shape of every non-2xx answer: {"error":{"code","message","param"?,"request_id"}}. */
@RegisterForReflection
public record ErrorBody(Detail error) {

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Detail(String code, String message, String param, @JsonProperty("request_id") String requestId) { }

    public static ErrorBody of(String code, String message, String param, String requestId) {
        return new ErrorBody(new Detail(code, message, param, requestId));
    }
}
