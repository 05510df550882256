package ht.platform.support.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every service describes the events it sends where tools look (OpenAPI 3.1 {@code webhooks} and
 * {@code GET /api/v1/event_types}), and a real delivery's body matches its description.
 */
public final class EventCatalogContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EventCatalogContract() { }

    /** The document and the endpoint list exactly {@code types}, each with the delivery headers; a key is needed. */
    public static void assertDescribed(String key, List<String> types, List<String> headers) throws IOException {
        JsonNode webhooks = document().get("webhooks");
        List<String> described = new ArrayList<>();
        webhooks.fieldNames().forEachRemaining(described::add);
        assertEquals(types, described);
        for (String type : types) {
            List<String> names = new ArrayList<>();
            webhooks.get(type).get("post").get("parameters").forEach(p -> names.add(p.get("name").asText()));
            assertEquals(headers, names, type);
        }
        given().get("/api/v1/event_types").then().statusCode(401);
        JsonNode listed = JSON.readTree(given().header("Authorization", "Bearer " + key).get("/api/v1/event_types")
                .then().statusCode(200).extract().asString());
        List<String> listedTypes = new ArrayList<>();
        listed.get("data").forEach(t -> listedTypes.add(t.get("type").asText()));
        assertEquals(types, listedTypes);
        assertEquals(JSON.valueToTree(webhooks.get(types.get(0)).get("post").get("requestBody").get("content")
                .get("application/json").get("schema")), listed.get("data").get(0).get("schema"));
    }

    /** The delivered body matches the schema its type has in the document (components resolved). */
    public static void assertMatchesSchema(byte[] body) throws IOException {
        JsonNode document = document();
        JsonNode event = JSON.readTree(body);
        String type = event.get("type").asText();
        JsonNode schema = document.get("webhooks").get(type).get("post").get("requestBody").get("content")
                .get("application/json").get("schema");
        List<String> problems = new ArrayList<>();
        check(document, schema, event, "$", problems);
        assertTrue(problems.isEmpty(), type + ": " + problems);
    }

    private static JsonNode document() throws IOException {
        return JSON.readTree(given().queryParam("format", "json").get("/openapi").then().statusCode(200).extract().asString());
    }

    private static void check(JsonNode document, JsonNode schema, JsonNode value, String at, List<String> problems) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().substring("#/components/schemas/".length());
            check(document, document.get("components").get("schemas").get(name), value, at, problems);
            return;
        }
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            if (schema.has(combinator)) {
                int passed = 0;
                for (JsonNode part : schema.get(combinator)) {
                    List<String> own = new ArrayList<>();
                    check(document, part, value, at, own);
                    passed += own.isEmpty() ? 1 : 0;
                }
                boolean ok = combinator.equals("allOf") ? passed == schema.get(combinator).size() : passed > 0;
                if (!ok) {
                    problems.add(at + ": fails " + combinator);
                }
            }
        }
        if (schema.has("type")) {
            List<String> allowed = new ArrayList<>();
            if (schema.get("type").isArray()) {
                schema.get("type").forEach(t -> allowed.add(t.asText()));
            } else {
                allowed.add(schema.get("type").asText());
            }
            if (allowed.stream().noneMatch(t -> is(t, value))) {
                problems.add(at + ": " + value.getNodeType() + " is not " + allowed);
                return;
            }
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode option : schema.get("enum")) {
                listed |= option.equals(value);
            }
            if (!listed) {
                problems.add(at + ": " + value + " is not one of " + schema.get("enum"));
            }
        }
        if (value.isObject()) {
            if (schema.has("required")) {
                schema.get("required").forEach(r -> {
                    if (!value.has(r.asText())) {
                        problems.add(at + ": lacks " + r.asText());
                    }
                });
            }
            if (schema.has("properties")) {
                schema.get("properties").fields().forEachRemaining(p -> {
                    if (value.has(p.getKey())) {
                        check(document, p.getValue(), value.get(p.getKey()), at + "." + p.getKey(), problems);
                    }
                });
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(document, schema.get("items"), value.get(i), at + "[" + i + "]", problems);
            }
        }
    }

    private static boolean is(String type, JsonNode value) {
        return switch (type) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "null" -> value.isNull();
            default -> true;
        };
    }
}
