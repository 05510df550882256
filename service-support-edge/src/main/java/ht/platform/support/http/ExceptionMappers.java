package ht.platform.support.http;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import ht.platform.support.errors.ApiException;
import ht.platform.support.errors.ErrorResponses;
import ht.platform.support.errors.TransientFailures;
import ht.platform.support.sql.ReadOnlyEviction;
import ht.platform.support.trace.RequestIds;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.stream.Collectors;

/** Maps every exception that escapes a resource to the platform error body; nothing leaks a stack trace. */
public class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class);

    @Inject
    ErrorResponses errors;

    @Inject
    ReadOnlyEviction readOnlyEviction;

    @ServerExceptionMapper
    public Response api(ApiException e, RoutingContext ctx) {
        return errors.toResponse(e, RequestIds.of(ctx));
    }

    @ServerExceptionMapper
    public Response unrecognized(UnrecognizedPropertyException e, RoutingContext ctx) {
        String field = fieldPath(e);
        return respond(ctx, new ApiException(400, "INVALID_REQUEST", "Unknown field '" + field + "'", field));
    }

    @ServerExceptionMapper
    public Response invalidFormat(InvalidFormatException e, RoutingContext ctx) {
        String field = fieldPath(e);
        if (e.getValue() instanceof String text && text.indexOf('\0') >= 0) {
            return respond(ctx, new ApiException(400, "INVALID_REQUEST",
                    "'" + field + "' must not contain the NUL character (\\u0000)", field.isEmpty() ? null : field));
        }
        return respond(ctx, new ApiException(400, "INVALID_REQUEST",
                "Invalid value for '" + field + "'" + expected(e), field));
    }

    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e, RoutingContext ctx) {
        String field = fieldPath(e);
        if (field.isEmpty()) {
            return respond(ctx, new ApiException(400, "INVALID_REQUEST", "The request body must be a JSON object"));
        }
        if (e instanceof InvalidNullException) {
            return respond(ctx, new ApiException(400, "INVALID_REQUEST", "'" + field + "' must not be null", field));
        }
        return respond(ctx, new ApiException(400, "INVALID_REQUEST",
                "Invalid value for '" + field + "'" + expected(e), field));
    }

    @ServerExceptionMapper
    public Response parse(JsonParseException e, RoutingContext ctx) {
        return respond(ctx, new ApiException(400, "INVALID_JSON", "The request body is not valid JSON"));
    }

    @ServerExceptionMapper
    public Response mapping(JsonMappingException e, RoutingContext ctx) {
        String field = fieldPath(e);
        Throwable cause = e.getCause();
        if (cause instanceof ApiException api) {
            return respond(ctx, api);
        }
        return respond(ctx, new ApiException(400, "INVALID_REQUEST",
                field.isEmpty() ? "The request body is invalid" : "Invalid value for '" + field + "'",
                field.isEmpty() ? null : field));
    }

    /** A body Jackson cannot bind for a reason of the code, not of the request: the 500 with the error body. */
    @ServerExceptionMapper
    public Response definition(InvalidDefinitionException e, RoutingContext ctx) {
        return unexpected(e, ctx);
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, RoutingContext ctx) {
        return respond(ctx, new ApiException(400, "INVALID_JSON", "The request body is not valid JSON"));
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e, RoutingContext ctx) {
        if (e.getCause() != null) {
            // JAX-RS answers 404 when a query or path parameter cannot be converted to its declared type
            return respond(ctx, new ApiException(400, "INVALID_REQUEST", "A query or path parameter has the wrong type"));
        }
        return respond(ctx, new ApiException(404, "NOT_FOUND", "No such resource: " + ctx.request().path()));
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e, RoutingContext ctx) {
        RouteTemplates.label(ctx);
        Response r = respond(ctx, new ApiException(405, "METHOD_NOT_ALLOWED",
                ctx.request().method().name() + " is not allowed on " + ctx.request().path()));
        String allow = e.getResponse().getHeaderString("Allow");
        return allow == null ? r : Response.fromResponse(r).header("Allow", allow).build();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, RoutingContext ctx) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e, ctx);
        }
        Throwable cause = e.getCause();
        if (cause instanceof JsonProcessingException) {
            return respond(ctx, new ApiException(400, "INVALID_JSON", "The request body is not valid JSON"));
        }
        return respond(ctx, new ApiException(status, codeFor(status), messageFor(status, ctx)));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, RoutingContext ctx) {
        if (e instanceof ApiException api) {
            return api(api, ctx);
        }
        String requestId = RequestIds.of(ctx);
        if (TransientFailures.isTransient(e)) {
            LOG.warnf("request %s: database unavailable: %s", requestId, e.toString());
            readOnlyEviction.seen(e);
            return errors.toResponse(new ApiException(503, "SERVICE_UNAVAILABLE",
                    "The service is briefly unavailable; nothing was changed, retry the request",
                    null, java.util.Map.of("Retry-After", "1")), requestId);
        }
        LOG.errorf("request %s failed: %s", requestId, e.toString());
        return errors.toResponse(new ApiException(500, "INTERNAL_ERROR",
                "An internal error occurred; quote the request id when contacting support"), requestId);
    }

    private Response respond(RoutingContext ctx, ApiException e) {
        return errors.toResponse(e, RequestIds.of(ctx));
    }

    private static String codeFor(int status) {
        return switch (status) {
            case 400 -> "INVALID_REQUEST";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "FORBIDDEN";
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 406 -> "NOT_ACCEPTABLE";
            case 413 -> "PAYLOAD_TOO_LARGE";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            default -> "REQUEST_FAILED";
        };
    }

    private static String messageFor(int status, RoutingContext ctx) {
        return switch (status) {
            case 406 -> "Only application/json responses are available";
            case 413 -> "The request body is larger than 1 MiB";
            case 415 -> "Content-Type must be application/json";
            default -> "The request cannot be processed (" + status + ")";
        };
    }

    static String fieldPath(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String expected(MismatchedInputException e) {
        Class<?> type = e.getTargetType();
        if (type == null) {
            return "";
        }
        if (type == String.class) {
            return ": expected a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return ": expected an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return ": expected true or false";
        }
        if (type.isEnum()) {
            return ": expected one of " + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase();
        }
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return ": expected an array";
        }
        return ": wrong type";
    }
}
