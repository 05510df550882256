package ht.platform.support.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The served {@code /openapi.json} is one that linters and client generators take as it is: every operation (paths
 * and webhooks) has its own operationId, verb and object in camelCase ({@code createPayment}); the document has
 * servers, a licence, a contact and described tags; every request body has an example, and so has the error body;
 * and Redocly's CLI, with the repository's {@code redocly.yaml} ({@code recommended} rules), finds no error and no
 * warning in it.
 */
public abstract class OpenApiDocumentContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STYLE = "[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+";

    private JsonNode served() throws Exception {
        return JSON.readTree(given().get("/openapi.json").then().statusCode(200).extract().asString());
    }

    /** Every operation as "METHOD path" (a webhook as "WEBHOOK name METHOD") with its operationId, null when it has none. */
    static Map<String, String> operationIds(JsonNode document) {
        Map<String, String> ids = new java.util.LinkedHashMap<>();
        for (String section : List.of("paths", "webhooks")) {
            JsonNode items = document.path(section);
            items.fieldNames().forEachRemaining(path -> items.get(path).fields().forEachRemaining(method -> {
                if (List.of("get", "put", "post", "delete", "options", "head", "patch", "trace").contains(method.getKey())) {
                    JsonNode id = method.getValue().get("operationId");
                    ids.put((section.equals("webhooks") ? "WEBHOOK " : "") + method.getKey().toUpperCase(java.util.Locale.ROOT)
                            + " " + path, id == null ? null : id.asText());
                }
            }));
        }
        return ids;
    }

    /** What is wrong with the document's operationIds: operations without one, one used twice, one not in lower camelCase. */
    public static List<String> operationIdProblems(JsonNode document) {
        Map<String, String> ids = operationIds(document);
        List<String> problems = new ArrayList<>();
        if (ids.isEmpty()) {
            problems.add("no operations");
        }
        ids.forEach((operation, id) -> {
            if (id == null || id.isBlank()) {
                problems.add(operation + " has no operationId");
            } else if (!id.matches(STYLE)) {
                problems.add(operation + ": " + id + " is not in lower camelCase (createPayment)");
            }
        });
        Map<String, List<String>> byId = new HashMap<>();
        ids.forEach((operation, id) -> {
            if (id != null && !id.isBlank()) {
                byId.computeIfAbsent(id, k -> new ArrayList<>()).add(operation);
            }
        });
        byId.forEach((id, operations) -> {
            if (operations.size() > 1) {
                problems.add(id + " is the operationId of " + operations);
            }
        });
        return problems;
    }

    @Test
    void everyOperationHasItsOwnOperationIdInOneStyle() throws Exception {
        JsonNode document = served();
        assertEquals(List.of(), operationIdProblems(document));
        System.out.println("[openapi] " + operationIds(document).size() + " operations, each with its own operationId");
    }

    @Test
    void serversInfoTagsAndExamplesAreThere() throws Exception {
        JsonNode document = served();
        assertTrue(document.path("servers").size() == 1 && document.path("servers").get(0).path("url").asText().startsWith("http"),
                "servers: " + document.path("servers"));
        assertFalse(document.path("servers").get(0).path("url").asText().endsWith("/"), "a server URL ends without /");
        assertTrue(document.path("info").path("license").hasNonNull("name"), "info.license");
        assertTrue(document.path("info").path("contact").hasNonNull("url"), "info.contact");
        List<String> undescribed = new ArrayList<>();
        document.path("tags").forEach(t -> {
            if (t.path("description").asText("").isBlank()) {
                undescribed.add(t.path("name").asText());
            }
        });
        assertEquals(List.of(), undescribed, "tags without a description");
        List<String> noExample = new ArrayList<>();
        for (String section : List.of("paths", "webhooks")) {
            document.path(section).fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
                JsonNode content = method.getValue().path("requestBody").path("content");
                content.fields().forEachRemaining(media -> {
                    if (!media.getValue().has("example") && !media.getValue().has("examples")) {
                        noExample.add(method.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey() + " " + media.getKey());
                    }
                });
            }));
        }
        assertEquals(List.of(), noExample, "request bodies without an example");
        assertTrue(document.path("components").path("schemas").path("ErrorBody").has("examples"), "the error body's example");
        document.path("webhooks").fields().forEachRemaining(w -> assertEquals(0, w.getValue().path("post").path("security").size(),
                w.getKey() + ": a webhook says security: [] (its signature headers are its proof)"));
    }

    @Test
    void redoclyRecommendedRulesFindNothing() throws Exception {
        Path target = Path.of("target/openapi-lint");
        Files.createDirectories(target);
        Path document = target.resolve("openapi.json").toAbsolutePath();
        Files.writeString(document, given().get("/openapi.json").then().statusCode(200).extract().asString());
        NodeTools.require();
        Path report = target.resolve("redocly-report.json").toAbsolutePath();
        Path log = target.resolve("redocly.log").toAbsolutePath();
        long started = System.nanoTime();
        int exit = NodeTools.run(log, "redocly", "lint", "--config", NodeTools.root().resolve("redocly.yaml").toString(),
                "--format", "json", "--max-problems", "500", document.toString());
        String out = Files.readString(log);
        int start = out.indexOf('{');
        assertTrue(start >= 0, "redocly wrote no report (exit " + exit + "): " + out);
        JsonNode result = JSON.readTree(out.substring(start, out.lastIndexOf('}') + 1));
        Files.writeString(report, result.toPrettyString());
        List<String> problems = new ArrayList<>();
        result.path("problems").forEach(p -> problems.add(p.path("severity").asText() + " " + p.path("ruleId").asText() + ": "
                + p.path("message").asText() + " at " + p.path("location").path(0).path("pointer").asText()));
        System.out.printf("[openapi] redocly lint: %d errors, %d warnings in %d ms (report %s)%n",
                result.path("totals").path("errors").asInt(), result.path("totals").path("warnings").asInt(),
                (System.nanoTime() - started) / 1_000_000, report);
        assertEquals(List.of(), problems, "Redocly's recommended rules (redocly.yaml) on the served document");
        assertEquals(0, exit, "redocly lint's exit; its output: " + log);
    }
}
