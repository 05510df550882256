package ht.platform.support.testing;

import io.restassured.http.ContentType;
import ht.platform.support.admin.OperatorApi;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP edge every service shares (DESIGN rules 3-6, 15), tested against each running service: a service's
 * {@code @QuarkusTest} subclass says what its owners, keys and headers are called, and its
 * {@code @QuarkusIntegrationTest} subclass of that runs the same checks against the packaged application.
 */
public abstract class FoundationContract {

    protected static final String ADMIN = "Bearer test-admin-token";

    private final ServiceTerms terms;

    protected FoundationContract(ServiceTerms terms) {
        this.terms = terms;
    }

    private RequestSpecification operator() {
        return given().header("Authorization", ADMIN).contentType(ContentType.JSON);
    }

    @Test
    void healthOpenApiAndSwaggerAnswer() {
        given().get("/q/health/live").then().statusCode(200).header(terms.requestIdHeader(), startsWith("req_"));
        given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("checks.name", hasItem(containsString("Reactive PostgreSQL")));
        given().get("/openapi.json").then().statusCode(200).body("openapi", startsWith("3.1"));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void unknownPathIsJson404WithTheRequestIdInHeaderAndBody() {
        var response = given().get("/v2/nope").then().statusCode(404).contentType(ContentType.JSON)
                .body("error.code", equalTo("NOT_FOUND")).extract();
        assertEquals(response.header(terms.requestIdHeader()), response.path("error.request_id"));
        assertNotEquals(response.header(terms.requestIdHeader()), given().get("/v2/nope").header(terms.requestIdHeader()));
        given().get("/q/nothing-here").then().statusCode(404).contentType(ContentType.JSON)
                .body("error.request_id", notNullValue());
    }

    @Test
    void wrongMethodIs405() {
        given().header("Authorization", ADMIN).get(terms.ownersPath()).then().statusCode(405)
                .contentType(ContentType.JSON).body("error.code", equalTo("METHOD_NOT_ALLOWED"));
    }

    @Test
    void operatorApiNeedsTheToken() {
        given().contentType(ContentType.JSON).body(terms.ownerBody("\"x\"")).post(terms.ownersPath())
                .then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer wrong").contentType(ContentType.JSON).body(terms.ownerBody("\"x\""))
                .post(terms.ownersPath()).then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
    }

    @Test
    void malformedMistypedAndUnknownJsonAre400() {
        operator().body("{\"name\":").post(terms.ownersPath()).then().statusCode(400)
                .body("error.code", equalTo("INVALID_JSON")).body("error.request_id", startsWith("req_"));
        operator().body(terms.ownerBody("12")).post(terms.ownersPath()).then().statusCode(400).body("error.param", equalTo("name"));
        operator().body(terms.ownerBody("\"a\"").replaceFirst("}$", ",\"extra\":1}")).post(terms.ownersPath())
                .then().statusCode(400).body("error.param", equalTo("extra"));
        operator().body("[1]").post(terms.ownersPath()).then().statusCode(400).body("error.code", equalTo("INVALID_REQUEST"));
        given().header("Authorization", ADMIN).contentType(ContentType.TEXT).body("name=x").post(terms.ownersPath())
                .then().statusCode(415).body("error.code", equalTo("UNSUPPORTED_MEDIA_TYPE"));
    }

    @Test
    void bodiesOver1MiBAre413WithOrWithoutALength() {
        String big = terms.ownerBody("\"" + "a".repeat(1_100_000) + "\"");
        operator().body(big).post(terms.ownersPath()).then().statusCode(413)
                .body("error.code", equalTo("PAYLOAD_TOO_LARGE")).header(terms.requestIdHeader(), startsWith("req_"));
        operator().body(new java.io.ByteArrayInputStream(big.getBytes()))
                .post(terms.ownersPath()).then().statusCode(413).body("error.code", equalTo("PAYLOAD_TOO_LARGE"));
    }

    @Test
    void keysAreShownOnceStoredAsHashesAndRevocable() {
        String owner = operator().body(terms.ownerBody("\"Shop\"")).post(terms.ownersPath()).then().statusCode(201)
                .body("id", startsWith(terms.ownerIdPrefix())).body("created_at", notNullValue()).extract().path("id");
        var issued = operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[\"" + terms.someGrant() + "\"]}")
                .post(terms.ownersPath() + "/" + owner + "/keys").then().statusCode(201)
                .body("key", matchesPattern(terms.keyPrefix() + "test_[A-Za-z0-9_-]{43}"))
                .body(terms.grantsField(), equalTo(List.of(terms.someGrant()))).extract();
        String key = issued.path("key");
        operator().body("{\"mode\":\"staging\"}").post(terms.ownersPath() + "/" + owner + "/keys")
                .then().statusCode(400).body("error.param", equalTo("mode"));
        operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[\"root\"]}").post(terms.ownersPath() + "/" + owner + "/keys")
                .then().statusCode(400).body("error.param", equalTo(terms.grantsField()));
        operator().body("{\"mode\":\"test\"}").post(terms.ownersPath() + "/" + terms.ownerIdPrefix() + "missing/keys")
                .then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));

        String keyed = keyedOperation().substring(4);
        given().get(keyed).then().statusCode(401).body("error.code", equalTo("UNAUTHENTICATED"));
        given().header("Authorization", "Bearer " + terms.keyPrefix() + "test_unknown").get(keyed).then().statusCode(401);
        given().header("Authorization", "Bearer " + key).get(keyed).then().statusCode(not(401));

        given().header("Authorization", ADMIN).delete("/admin/v1/keys/" + issued.path("id")).then().statusCode(204);
        given().header("Authorization", "Bearer " + key).get(keyed).then().statusCode(401)
                .body("error.code", equalTo("UNAUTHENTICATED"));
    }

    /** Every operation of the running service, "METHOD /path" with each {param} filled, from its OpenAPI document. */
    protected List<String> operations() {
        Map<String, Map<String, Object>> paths = JsonPath.from(given().get("/openapi.json").asString()).getMap("paths");
        List<String> operations = new ArrayList<>();
        paths.forEach((path, methods) -> methods.keySet().forEach(method ->
                operations.add(method.toUpperCase(Locale.ROOT) + " " + path.replaceAll("\\{[^}]+}", "x_1"))));
        ResourceRoutes.boundTo(OperatorApi.class).forEach(o -> operations.add(o.replaceAll("\\{[^}]+}", "x_1")));
        return operations;
    }

    /** An operation of the public API that needs a key, e.g. "GET /api/v1/payment_intents". */
    protected String keyedOperation() {
        return operations().stream().filter(o -> o.startsWith("GET /api/v1/") && !o.contains("capabilities"))
                .findFirst().orElseThrow();
    }

    @Test
    void noSpellingOfAProtectedRouteGetsAroundItsCheck() {
        List<String> admin = operations().stream().filter(o -> o.contains(" /admin/v1/")).toList();
        assertTrue(admin.contains("POST " + terms.ownersPath()) && admin.contains("DELETE /admin/v1/keys/x_1"),
                "the operator routes are listed in /openapi.json: " + admin);
        List<String> targets = new ArrayList<>(admin);
        targets.add(keyedOperation());
        List<String> holes = new ArrayList<>();
        int sent = 0;
        for (String operation : targets) {
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1);
            RawHttp.Answer canonical = RawHttp.send(method, path, Map.of("Content-Type", "application/json"), null);
            if (canonical.status() != 401) {
                holes.add(operation + " (canonical, no credentials) -> " + canonical.status() + " " + canonical.body());
            }
            for (String spelling : PathSpellings.of(path)) {
                for (Map<String, String> headers : List.of(Map.of("Content-Type", "application/json"),
                        Map.of("Content-Type", "application/json", "Authorization", "Bearer wrong"))) {
                    RawHttp.Answer answer = RawHttp.send(method, spelling, headers, method.equals("POST") || method.equals("PATCH")
                            ? terms.ownerBody("\"x\"") : null);
                    sent++;
                    // 401: the check ran; 404 "No such resource": nothing routes there. A resource's own 404 would mean
                    // the spelling reached it unchecked.
                    boolean refused = (answer.status() == 401 || answer.status() == 404 && answer.body().contains("No such resource"))
                            && answer.body().contains("\"request_id\"");
                    if (!refused) {
                        holes.add(method + " " + spelling + " -> " + answer.status() + " " + answer.body());
                    }
                }
            }
        }
        assertEquals(List.of(), holes, "spellings that got past the check (of " + sent + " sent)");
    }

    /** A test-mode key with every grant, of a new owner. */
    protected String newTestKey() {
        String owner = operator().body(terms.ownerBody("\"Keyed\"")).post(terms.ownersPath()).then().statusCode(201).extract().path("id");
        return operator().body("{\"mode\":\"test\"}").post(terms.ownersPath() + "/" + owner + "/keys")
                .then().statusCode(201).extract().path("key");
    }

    @Test
    void listParametersOfTheWrongTypeAre400NamingTheParameter() {
        String key = "Bearer " + newTestKey();
        JsonPath openapi = JsonPath.from(given().get("/openapi.json").asString());
        Map<String, Map<String, Object>> paths = openapi.getMap("paths");
        int checked = 0;
        for (String path : paths.keySet()) {
            if (!path.startsWith("/api/v1/") || path.contains("{") || !paths.get(path).containsKey("get")) {
                continue;
            }
            List<String> query = openapi.getList("paths.'" + path + "'.get.parameters.findAll { it.in == 'query' }.name");
            for (String name : query) {
                List<String> wrong = switch (name) {
                    // an empty value ("limit=") reaches the resource as an absent parameter: the default applies
                    case "limit" -> List.of("abc", "99999999999999999999", "0", "101", "1.5", "-1", "%20", "%00");
                    case "starting_after" -> List.of("%20", "%00", "a".repeat(101));
                    default -> List.of("%00", "no_such_" + name);
                };
                for (String value : wrong) {
                    String target = path + "?" + name + "=" + value;
                    io.restassured.response.Response answer = given().header("Authorization", key).urlEncodingEnabled(false).get(target);
                    assertEquals(400, answer.statusCode(), target + " -> " + answer.asString());
                    answer.then()
                            .body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo(name))
                            .body("error.request_id", startsWith("req_"));
                    checked++;
                }
            }
        }
        System.out.println("list parameter checks: " + checked);
    }

    @Test
    void nulInJsonQueryOrHeaderIs400NamingWhereItWas() {
        operator().body(terms.ownerBody("\"a\\u0000b\"")).post(terms.ownersPath()).then().statusCode(400)
                .body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo("name"));
        String owner = operator().body(terms.ownerBody("\"Nul\"")).post(terms.ownersPath()).then().statusCode(201).extract().path("id");
        operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[\"" + terms.someGrant() + "\\u0000\"]}")
                .post(terms.ownersPath() + "/" + owner + "/keys").then().statusCode(400).body("error.param", equalTo(terms.grantsField() + "[0]"));
        operator().body("{\"mode\":\"te\\u0000st\"}").post(terms.ownersPath() + "/" + owner + "/keys")
                .then().statusCode(400).body("error.param", equalTo("mode"));
        String keyed = keyedOperation().substring(4);
        given().urlEncodingEnabled(false).get(keyed + "?q=%00").then().statusCode(400).body("error.param", equalTo("q"))
                .body("error.request_id", startsWith("req_"));
        given().urlEncodingEnabled(false).get("/q/health/live?q=a%00").then().statusCode(400).body("error.param", equalTo("q"));
        // NUL in a header: the HTTP parser refuses the request itself (400) before any code runs; other control
        // characters reach the edge, which answers 400 with the error body
        RawHttp.Answer nul = RawHttp.send("POST", terms.ownersPath(), Map.of("Content-Type", "application/json",
                "Authorization", ADMIN, "Idempotency-Key", "a\u0000b"), terms.ownerBody("\"x\""));
        assertEquals(400, nul.status(), nul.body());
        RawHttp.Answer control = RawHttp.send("POST", terms.ownersPath(), Map.of("Content-Type", "application/json",
                "Authorization", ADMIN, "Idempotency-Key", "a\u0001b"), terms.ownerBody("\"x\""));
        assertEquals(400, control.status(), control.body());
        operator().body("{\"name\":\"a\",\"name\":\"b\"}").post(terms.ownersPath()).then().statusCode(400)
                .body("error.code", equalTo("INVALID_JSON"));
    }

    @Test
    void nullItemsInArraysAre400() {
        String owner = operator().body(terms.ownerBody("\"Nulls\"")).post(terms.ownersPath()).then().statusCode(201).extract().path("id");
        operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[null]}").post(terms.ownersPath() + "/" + owner + "/keys")
                .then().statusCode(400).body("error.code", equalTo("INVALID_REQUEST"))
                .body("error.param", equalTo(terms.grantsField() + "[0]")).body("error.request_id", startsWith("req_"));
        operator().body("{\"mode\":\"test\",\"" + terms.grantsField() + "\":[\"" + terms.someGrant() + "\",null]}")
                .post(terms.ownersPath() + "/" + owner + "/keys").then().statusCode(400).body("error.param", equalTo(terms.grantsField() + "[1]"));
    }

    /**
     * Paths of this service that carry a secret segment (a hosted-page token, an external user id), each holding the
     * text "SECRETxyz" where the secret goes.
     */
    protected abstract List<String> pathsWithSecrets();

    /** The log file of the application under test ({@code %test.quarkus.log.file.path}). */
    protected Path logFile() {
        return Path.of("target", "test-app.log");
    }

    @Test
    void theAccessLogMasksSecretPathSegmentsAndKeepsMethodStatusDurationAndRequestId() throws Exception {
        for (String template : pathsWithSecrets()) {
            String secret = "SECRET" + Long.toHexString(System.nanoTime());
            String path = template.replace("SECRETxyz", secret);
            String requestId = given().urlEncodingEnabled(false).get(path + "?q=" + secret).header(terms.requestIdHeader());
            String line = awaitLogLine(requestId);
            assertFalse(line.contains(secret), line);
            String masked = path.substring(0, path.lastIndexOf('/', path.indexOf(secret)) + 1) + "***";
            assertTrue(line.matches(".*GET " + Pattern.quote(masked)
                    + "\\S* \\d{3} \\d+ ms " + requestId + ".*"), line);
        }
    }

    private String awaitLogLine(String requestId) throws Exception {
        // the log file is written asynchronously: waiting for the line, not for time to pass
        return Waiting.until("no access log line for " + requestId + " in " + logFile().toAbsolutePath(), () -> {
            if (!Files.exists(logFile())) {
                return java.util.Optional.<String>empty();
            }
            try (var lines = Files.lines(logFile())) {
                return lines.filter(l -> l.contains(requestId) && l.contains(" ms ")).findFirst();
            }
        }, java.util.Optional::isPresent).get();
    }

    /**
     * A pod that does not migrate at start waits for platform.schema.version: it must be the newest V__ migration of
     * the service's Flyway locations (its own db/migration, service-support's shared ones), and the running service
     * reports its schema at that version in /q/health/ready.
     */
    @Test
    void theReadinessSchemaVersionIsTheNewestMigrationTheServiceShips() throws java.io.IOException {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        List<ht.platform.support.health.MigrationVersion> versions = new ArrayList<>();
        for (String location : config.getValue("quarkus.flyway.migrations.locations", String[].class)) {
            Path own = Path.of("src/main/resources", location);
            Path dir = Files.isDirectory(own) ? own : Path.of("../service-support/src/main/resources", location);
            assertTrue(Files.isDirectory(dir), "Flyway location " + location + " not found in the source tree");
            try (var files = Files.list(dir)) {
                files.map(file -> ht.platform.support.health.MigrationVersion.ofFileName(file.getFileName().toString()))
                        .filter(java.util.Objects::nonNull).forEach(versions::add);
            }
        }
        var newest = versions.stream().max(java.util.Comparator.naturalOrder()).orElse(null);
        assertEquals(String.valueOf(newest), config.getValue("platform.schema.version", String.class),
                "platform.schema.version in application.properties");
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'Database schema migrated' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'Database schema migrated' }.data.version", equalTo(String.valueOf(newest)));
    }

    @Test
    void fuzzedRequestsNeverAnswer5xxOrAStackTrace() {
        String key = "Bearer " + newTestKey();
        long seed = Long.getLong("fuzz.seed", 14L);
        RequestFuzzer fuzzer = new RequestFuzzer(seed, given().get("/openapi.json").asString());
        List<RequestFuzzer.Exchange> sent = new ArrayList<>();
        long started = System.nanoTime();
        List<RequestFuzzer.Exchange> bad = fuzzer.run(Integer.getInteger("fuzz.count", 1200), 600_000,
                path -> path.startsWith("/admin/") ? ADMIN : key, sent);
        System.out.printf("fuzz (seed %d): %d requests to %d operations in %d ms, %d bad%n", seed, sent.size(),
                fuzzer.operationCount(), (System.nanoTime() - started) / 1_000_000, bad.size());
        assertEquals(List.of(), bad.stream().limit(15).map(Object::toString).toList(), "seed " + seed);
    }

    /**
     * The public OpenAPI document is one a client generator can use: the bearer API key on every /api/v1 operation
     * (an unsecured one really answers without a key), the error body on every error status, no operator API.
     */
    @Test
    @SuppressWarnings("unchecked")
    void openApiDocumentsTheBearerKeyAndTheErrorBodyOfEveryOperation() {
        io.restassured.path.json.JsonPath doc = given().get("/openapi.json").then().statusCode(200).extract().jsonPath();
        java.util.Map<String, Object> scheme = doc.getMap("components.securitySchemes.ApiKey");
        assertEquals("http", scheme.get("type"));
        assertEquals("bearer", scheme.get("scheme"));
        assertEquals(java.util.Set.of("ApiKey"), doc.getMap("components.securitySchemes").keySet(), "one scheme, the API key");
        java.util.Map<String, Object> error = doc.getMap("components.schemas.ErrorBody.properties.error.properties");
        assertEquals(java.util.Set.of("code", "message", "param", "request_id"), error.keySet());
        java.util.Map<String, java.util.Map<String, Object>> paths = doc.getMap("paths");
        org.junit.jupiter.api.Assertions.assertTrue(paths.keySet().stream().noneMatch(p -> p.startsWith("/admin")),
                "the operator API is in the public document: " + paths.keySet());
        int checked = 0;
        for (var path : paths.entrySet()) {
            for (var op : path.getValue().entrySet()) {
                if (!java.util.Set.of("get", "post", "put", "patch", "delete").contains(op.getKey())) {
                    continue;
                }
                String where = op.getKey().toUpperCase() + " " + path.getKey();
                java.util.Map<String, Object> operation = (java.util.Map<String, Object>) op.getValue();
                java.util.Map<String, Object> responses = (java.util.Map<String, Object>) operation.get("responses");
                org.junit.jupiter.api.Assertions.assertTrue(responses.containsKey("400") && responses.containsKey("404"), where + ": " + responses.keySet());
                responses.forEach((status, response) -> {
                    if (status.startsWith("4") || status.startsWith("5")) {
                        Object ref = ((java.util.Map<String, Object>) ((java.util.Map<String, Object>) ((java.util.Map<String, Object>) ((java.util.Map<String, Object>)
                                response).get("content")).get("application/json")).get("schema")).get("$ref");
                        assertEquals("#/components/schemas/ErrorBody", ref, where + " " + status);
                    }
                });
                java.util.List<java.util.Map<String, Object>> security = (java.util.List<java.util.Map<String, Object>>) operation.get("security");
                if (path.getKey().startsWith("/api/v1")) {
                    if (security == null || security.isEmpty()) {
                        assertEquals("get", op.getKey(), where + " has no security but is not a public read");
                        assertNotEquals(401, given().get(path.getKey()).statusCode(), where + " is documented public but wants a key");
                    } else {
                        assertEquals(java.util.Set.of("ApiKey"), security.get(0).keySet(), where);
                        org.junit.jupiter.api.Assertions.assertTrue(responses.containsKey("401"), where + " does not list 401");
                        assertEquals(401, given().contentType(ContentType.JSON).body("{}")
                                .request(op.getKey().toUpperCase(Locale.ROOT), path.getKey().replaceAll("\\{[^}]+}", "x_1"))
                                .statusCode(), where + " is documented as keyed but answers without a key");
                    }
                }
                checked++;
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(checked >= 5, "only " + checked + " operations documented");
    }
}
