package ht.platform.support.openapi;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

import java.util.ArrayList;
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
            var operation = OASFactory.createOperation().operationId(operationId(type.type()))
                    .summary(type.type()).description(type.description() + "\n\nSigned: " + catalog.signature())
                    // the receiver checks the signature header; no API key is sent to it
                    .security(new ArrayList<>())
                    .requestBody(OASFactory.createRequestBody().required(true).content(OASFactory.createContent()
                            .addMediaType("application/json", OASFactory.createMediaType().schema(schema(type.schema()))
                                    .example(example(type.type(), type.schema(), ref -> components(api, ref))))))
                    .responses(OASFactory.createAPIResponses().addAPIResponse("2XX",
                            OASFactory.createAPIResponse().description("Acknowledged: any 2xx within the send timeout")));
            catalog.headers().forEach((name, description) -> operation.addParameter(OASFactory.createParameter()
                    .name(name).in(Parameter.In.HEADER).required(true).description(description)
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING))));
            api.addWebhook(type.type(), OASFactory.createPathItem().POST(operation));
        }
    }

    /** {@code payment_intent.succeeded} → {@code receivePaymentIntentSucceeded}: what the receiver does, in the document's words. */
    static String operationId(String type) {
        StringBuilder out = new StringBuilder("receive");
        for (String word : type.split("[._]")) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }

    /**
     * An example event of the type, made from its schema (Redocly checks it against the schema): every property, each
     * with the schema's own example, const or first enum value where it has one, else a value of its declared type
     * (a string property's example is its name); the event's id, type and time are set.
     */
    @SuppressWarnings("unchecked")
    static Object example(String type, Map<String, Object> schema, java.util.function.Function<String, Object> refs) {
        Map<String, Object> event = (Map<String, Object>) exampleOf("event", schema, refs, 0);
        event.put("id", "evt_01JD8Z6Q3R4S5T6V7W8X9Y0ZAB");
        event.put("type", type);
        if (event.containsKey("created_at")) {
            event.put("created_at", "2026-11-27T12:00:00Z");
        }
        return event;
    }

    @SuppressWarnings("unchecked")
    private static Object exampleOf(String name, Object node, java.util.function.Function<String, Object> refs, int depth) {
        if (node instanceof Schema model) {
            node = asMap(model);
        }
        if (!(node instanceof Map<?, ?>) || depth > 12) {
            return name;
        }
        Map<String, Object> schema = (Map<String, Object>) node;
        if (schema.get("$ref") instanceof String ref) {
            return exampleOf(name, refs.apply(ref), refs, depth + 1);
        }
        if (schema.containsKey("example")) {
            return schema.get("example");
        }
        if (schema.get("examples") instanceof List<?> examples && !examples.isEmpty()) {
            return examples.get(0);
        }
        if (schema.containsKey("const")) {
            return schema.get("const");
        }
        if (schema.get("enum") instanceof List<?> values && !values.isEmpty()) {
            return values.get(0);
        }
        if (schema.get("oneOf") instanceof List<?> options && !options.isEmpty()) {
            return exampleOf(name, options.get(0), refs, depth + 1);
        }
        if (schema.get("anyOf") instanceof List<?> options && !options.isEmpty()) {
            return exampleOf(name, options.get(0), refs, depth + 1);
        }
        Object declared = schema.get("type");
        String kind = declared instanceof List<?> kinds ? kinds.stream().map(String::valueOf).filter(k -> !k.equals("null"))
                .findFirst().orElse("null") : declared == null ? (schema.containsKey("properties") ? "object" : "string") : declared.toString();
        switch (kind) {
            case "object" -> {
                Map<String, Object> out = new LinkedHashMap<>();
                Map<String, Object> properties = (Map<String, Object>) schema.getOrDefault("properties", Map.of());
                properties.forEach((property, sub) -> out.put(property, exampleOf(property, sub, refs, depth + 1)));
                return out;
            }
            case "array" -> {
                return schema.containsKey("items") ? List.of(exampleOf(name, schema.get("items"), refs, depth + 1)) : List.of();
            }
            case "integer" -> {
                return schema.get("minimum") instanceof Number min ? min.longValue() : 1000L;
            }
            case "number" -> {
                return schema.get("minimum") instanceof Number min ? min : 1000;
            }
            case "boolean" -> {
                return false;
            }
            case "null" -> {
                return null;
            }
            default -> {
                return switch (String.valueOf(schema.get("format"))) {
                    case "date-time" -> "2026-11-27T12:00:00Z";
                    case "date" -> "2026-11-27";
                    case "uri", "url" -> "https://shop.example/" + name;
                    default -> name;
                };
            }
        }
    }

    /** The schema a {@code #/components/schemas/Name} reference names, or null. */
    private static Object components(OpenAPI api, String ref) {
        Map<String, Schema> schemas = api.getComponents() == null ? null : api.getComponents().getSchemas();
        return schemas == null ? null : schemas.get(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** The parts of a model Schema that make an example, as the JSON Schema map the catalog's own parts are. */
    private static Map<String, Object> asMap(Schema model) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (model.getRef() != null) {
            out.put("$ref", model.getRef());
            return out;
        }
        if (model.getType() != null) {
            out.put("type", model.getType().stream().map(t -> t.toString()).toList());
        }
        if (model.getFormat() != null) {
            out.put("format", model.getFormat());
        }
        if (model.getExample() != null) {
            out.put("example", model.getExample());
        }
        if (model.getExamples() != null && !model.getExamples().isEmpty()) {
            out.put("examples", model.getExamples());
        }
        if (model.getEnumeration() != null && !model.getEnumeration().isEmpty()) {
            out.put("enum", model.getEnumeration());
        }
        if (model.getConstValue() != null) {
            out.put("const", model.getConstValue());
        }
        if (model.getMinimum() != null) {
            out.put("minimum", model.getMinimum());
        }
        if (model.getProperties() != null) {
            out.put("properties", new LinkedHashMap<Object, Object>(model.getProperties()));
        }
        if (model.getItems() != null) {
            out.put("items", model.getItems());
        }
        if (model.getOneOf() != null) {
            out.put("oneOf", model.getOneOf());
        }
        if (model.getAnyOf() != null) {
            out.put("anyOf", model.getAnyOf());
        }
        if (model.getAllOf() != null && model.getAllOf().size() == 1) {
            return asMap(model.getAllOf().get(0));
        }
        return out;
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
