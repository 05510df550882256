package ht.platform.support.openapi;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service's webhook events as it describes them in {@code openapi/events.json} on its class path: the envelope
 * (JSON Schema, {@code "$object"} where each event's object goes), each type with its description and object
 * schema, the delivery headers, the signature scheme and the permission that reads them. One description serves
 * the OpenAPI document's {@code webhooks} and {@code GET /api/v1/event_types}.
 */
public final class EventCatalog {

    static final String RESOURCE = "openapi/events.json";
    private static final String OBJECT = "$object";

    public record EventType(String type, String description, Map<String, Object> schema) { }

    private final Map<String, Object> raw;

    private EventCatalog(Map<String, Object> raw) {
        this.raw = raw;
    }

    /** The service's catalog, or null when it publishes none. */
    public static EventCatalog load() {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(RESOURCE)) {
            return in == null ? null : new EventCatalog(new ObjectMapper().readValue(in, new TypeReference<>() { }));
        } catch (IOException e) {
            throw new UncheckedIOException("the event catalog " + RESOURCE + " could not be read", e);
        }
    }

    /** The permission a key needs to read the catalog and the events themselves. */
    public String scope() {
        return (String) raw.get("scope");
    }

    public String signature() {
        return (String) raw.get("signature");
    }

    @SuppressWarnings("unchecked")
    public Map<String, String> headers() {
        return (Map<String, String>) raw.get("headers");
    }

    /** Every type in the catalog's order, each with the whole event's schema (envelope and object). */
    @SuppressWarnings("unchecked")
    public List<EventType> types() {
        Map<String, Map<String, Object>> types = (Map<String, Map<String, Object>>) raw.get("types");
        return types.entrySet().stream().map(e -> new EventType(e.getKey(), (String) e.getValue().get("description"),
                withType(e.getKey(), (Map<String, Object>) substitute(raw.get("envelope"), e.getValue().get("object"))))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withType(String type, Map<String, Object> schema) {
        Map<String, Object> out = new LinkedHashMap<>(schema);
        Map<String, Object> properties = new LinkedHashMap<>((Map<String, Object>) out.get("properties"));
        properties.put("type", Map.of("type", "string", "enum", List.of(type)));
        out.put("properties", properties);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object substitute(Object node, Object object) {
        if (OBJECT.equals(node)) {
            return object;
        }
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((k, v) -> out.put(k, substitute(v, object)));
            return out;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(v -> substitute(v, object)).toList();
        }
        return node;
    }
}
