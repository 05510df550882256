package ht.platform.support.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.support.trace.RequestIds;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Builds error answers in the platform's error shape, both for JAX-RS and for raw Vert.x routes. */
@ApplicationScoped
public class ErrorResponses {

    @Inject
    ObjectMapper mapper;

    /** The JSON of an error body. */
    public String body(String code, String message, String param, String requestId) {
        try {
            return mapper.writeValueAsString(ErrorBody.of(code, message, param, requestId));
        } catch (JsonProcessingException e) {
            return "{\"error\":{\"code\":\"INTERNAL_ERROR\",\"message\":\"internal error\"}}";
        }
    }

    public Response toResponse(ApiException e, String requestId) {
        Response.ResponseBuilder builder = Response.status(e.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of(e.code(), e.getMessage(), e.param(), requestId, e.more()));
        e.headers().forEach(builder::header);
        return builder.build();
    }

    /** The refusal as {@link #toResponse} answers it, from a router handler: its headers, status and error body. */
    public void write(RoutingContext ctx, ApiException e) {
        e.headers().forEach(ctx.response()::putHeader);
        write(ctx, e.status(), e.code(), e.getMessage(), e.param());
    }

    public void write(RoutingContext ctx, int status, String code, String message) {
        write(ctx, status, code, message, null);
    }

    public void write(RoutingContext ctx, int status, String code, String message, String param) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        String body = body(code, message, param, RequestIds.of(ctx));
        if (!response.headWritten()) {
            response.setStatusCode(status);
            response.headers().remove("Content-Length");
            response.putHeader("Content-Type", MediaType.APPLICATION_JSON);
        }
        response.end(body);
    }
}
