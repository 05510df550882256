package ht.platform.support.openapi;

import ht.platform.support.auth.ApiKeyRequired;
import ht.platform.support.auth.Caller;
import ht.platform.support.errors.ApiException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1/event_types}: every event the service sends, with its JSON Schema, headers and signature. */
@ApiKeyRequired
@Path("/api/v1/event_types")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Events")
public class EventTypesResource {

    private static final EventCatalog CATALOG = EventCatalog.load();

    @Inject
    Caller caller;

    @GET
    @Operation(operationId = "listEventTypes", summary = "The event types this service sends, each with the JSON Schema of its body",
            description = "The same description as the document's webhooks object: the envelope and data.object of each"
                    + " type, the delivery headers and the signature scheme. Errors: 401; 403 INSUFFICIENT_SCOPE.")
    public Map<String, Object> list() {
        if (CATALOG == null) {
            throw ApiException.notFound("Event types");
        }
        caller.require(CATALOG.scope());
        List<Map<String, Object>> data = CATALOG.types().stream().map(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("object", "event_type");
            row.put("type", t.type());
            row.put("description", t.description());
            row.put("schema", t.schema());
            return row;
        }).toList();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("object", "list");
        out.put("data", data);
        out.put("headers", CATALOG.headers());
        out.put("signature", CATALOG.signature());
        out.put("has_more", false);
        return out;
    }
}
