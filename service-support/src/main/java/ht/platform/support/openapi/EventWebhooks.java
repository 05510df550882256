package ht.platform.support.openapi;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service's events in the document's top-level {@code webhooks} (OpenAPI 3.1), where client generators and
 * API tools look for them: one POST per event type with the body's JSON Schema, the delivery headers and the
 * signature scheme.
 */
final class EventWebhooks {

    private EventWebhooks() { }

    static void describe(OpenAPI api, EventCatalog catalog) {
        if (catalog == null) {
            return;
        }
        for (EventCatalog.EventType type : catalog.types()) {
            var operation = OASFactory.createOperation().operationId("event_" + type.type().replace('.', '_'))
                    .summary(type.type()).description(type.description() + "\n\nSigned: " + catalog.signature())
                    .requestBody(OASFactory.createRequestBody().required(true).content(OASFactory.createContent()
                            .addMediaType("application/json", OASFactory.createMediaType().schema(schema(type.schema())))))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("2XX",
                            OASFactory.createAPIResponse().description("Acknowledged: any 2xx within the send timeout")));
            catalog.headers().forEach((name, description) -> operation.addParameter(OASFactory.createParameter()
                    .name(name).in(Parameter.In.HEADER).required(true).description(description)
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING))));
            api.addWebhook(type.type(), OASFactory.createPathItem().POST(operation));
        }
    }

    /** A JSON Schema object as the model's Schema: nested schemas under properties and items, the rest as given. */
    @SuppressWarnings("unchecked")
    static Schema schema(Map<String, Object> json) {
        Schema schema = OASFactory.createSchema();
        json.forEach((key, value) -> {
            if ("properties".equals(key)) {
                Map<String, Schema> properties = new LinkedHashMap<>();
                ((Map<String, Object>) value).forEach((name, p) -> properties.put(name, schema((Map<String, Object>) p)));
                schema.setProperties(properties);
            } else if ("items".equals(key)) {
                schema.setItems(schema((Map<String, Object>) value));
            } else if ("$ref".equals(key)) {
                schema.setRef((String) value);
            } else if ("type".equals(key)) {
                List<Object> types = value instanceof List<?> list ? (List<Object>) list : List.of(value);
                types.forEach(t -> schema.addType(Schema.SchemaType.valueOf(((String) t).toUpperCase())));
            } else {
                schema.set(key, value);
            }
        });
        return schema;
    }
}
