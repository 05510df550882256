package ht.platform.support.idempotency;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** A response kept verbatim so that a replay returns exactly the same status and body. */
public record StoredResponse(int status, String body, boolean replayed) {

    public static StoredResponse fresh(int status, String body) {
        return new StoredResponse(status, body, false);
    }

    public Response toResponse() {
        Response.ResponseBuilder builder = Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body);
        if (replayed) {
            builder.header("Idempotent-Replayed", "true");
        }
        return builder.build();
    }
}
