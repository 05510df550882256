package ht.platform.kyc.rest;

import ht.platform.support.testing.TestDatabase;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.TestSupport;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationView;
import ht.platform.kyc.service.VerificationService;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.idempotency.Idempotency;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.testing.PlatformHarness;
import ht.platform.support.time.MovableClock;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@ExtendWith(PlatformHarness.class)
class VerificationApiTest {

    static final String ID_PATTERN = "kyc_ver_[0-9A-HJKMNP-TV-Z]{26}";

    @Inject
    MovableClock clock;

    Fixtures.App app;

    @BeforeEach
    void setUp() {
        app = Fixtures.app(null);
    }


    @Test
    void capabilitiesAndJwksNeedNoKey() {
        given().get("/api/v1/capabilities").then().statusCode(200).body("countries", equalTo(List.of("HT")))
                .body("documents", equalTo(List.of("national_id", "driver_license", "passport")))
                .body("levels", equalTo(List.of("standard"))).body("features.locales", equalTo(List.of("fr", "en", "ht")))
                .body("features.checks.passport.face_match", equalTo("not_configured"))
                .body("features.checks.passport.can_be_verified", equalTo(false))
                .body("assurance_source", equalTo("automated_document_and_face_check"));
        given().get("/.well-known/jwks.json").then().statusCode(200).body("keys[0].kty", equalTo("OKP"))
                .body("keys[0].crv", equalTo("Ed25519")).body("keys[0].alg", equalTo("EdDSA")).body("keys[0].use", equalTo("sig"))
                .body("keys[0].d", nullValue()).body("keys[0].kid", notNullValue());
    }

    @Test
    void createAppliesDefaultsAndReads() {
        Response created = as(app.testKey()).header("Idempotency-Key", "k-" + System.nanoTime())
                .body("{\"external_user_id\":\"user-1\",\"return_url\":\"https://client.example/done\",\"reference\":\"r1\",\"metadata\":{\"a\":1}}")
                .post("/api/v1/verifications");
        created.then().statusCode(200).body("id", matchesPattern(ID_PATTERN)).body("status", equalTo("created"))
                .body("verification_url", matchesPattern("http://localhost:8081/v/[A-Za-z0-9_-]{43}"))
                .body("expires_at", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"))
                .body("created_at", notNullValue());
        String id = created.path("id");
        String url = created.path("verification_url");
        assertTrue(!url.contains(id), "the page URL carries a token, not the id");
        as(app.testKey()).get("/api/v1/verifications/" + id).then().statusCode(200)
                .body("external_user_id", equalTo("user-1")).body("status", equalTo("created")).body("level", equalTo("standard"))
                .body("result", nullValue()).body("reason_code", nullValue()).body("reason_codes", equalTo(List.of()))
                .body("completed_at", nullValue()).body("government_registry_checked", equalTo(false))
                .body("assurance_source", equalTo("automated_document_and_face_check")).body("metadata.a", equalTo(1));
    }

    @Test
    void everyFieldRuleIs400WithParam() {
        String[][] cases = {
                {"{}", "external_user_id"},
                {"{\"external_user_id\":\"\"}", "external_user_id"},
                {"{\"external_user_id\":\"" + "x".repeat(201) + "\"}", "external_user_id"},
                {"{\"external_user_id\":12}", "external_user_id"},
                {"{\"external_user_id\":\"u\",\"required_level\":\"high\"}", "required_level"},
                {"{\"external_user_id\":\"u\",\"country\":\"FR\"}", "country"},
                {"{\"external_user_id\":\"u\",\"document_types\":[]}", "document_types"},
                {"{\"external_user_id\":\"u\",\"document_types\":[\"visa\"]}", "document_types"},
                {"{\"external_user_id\":\"u\",\"document_types\":[\"passport\",\"passport\"]}", "document_types"},
                {"{\"external_user_id\":\"u\",\"document_types\":\"passport\"}", "document_types"},
                {"{\"external_user_id\":\"u\",\"return_url\":\"https://client.example/done/\"}", "return_url"},
                {"{\"external_user_id\":\"u\",\"return_url\":\"https://evil.example/done\"}", "return_url"},
                {"{\"external_user_id\":\"u\",\"locale\":\"de\"}", "locale"},
                {"{\"external_user_id\":\"u\",\"metadata\":[1]}", "metadata"},
                {"{\"external_user_id\":\"u\",\"colour\":\"red\"}", "colour"},
        };
        for (String[] c : cases) {
            as(app.testKey()).header("Idempotency-Key", "bad-" + System.nanoTime()).body(c[0]).post("/api/v1/verifications")
                    .then().statusCode(400).body("error.param", equalTo(c[1])).body("error.request_id", startsWith("req_"));
        }
        as(app.testKey()).body("{\"external_user_id\":\"u\"}").post("/api/v1/verifications").then().statusCode(400)
                .body("error.param", equalTo("Idempotency-Key"));
        as(app.testKey()).header("Idempotency-Key", "k".repeat(201)).body("{\"external_user_id\":\"u\"}").post("/api/v1/verifications")
                .then().statusCode(400).body("error.param", equalTo("Idempotency-Key"));
        as(app.testKey()).header("Idempotency-Key", "k".repeat(200)).body("{\"external_user_id\":\"" + "x".repeat(200) + "\"}")
                .post("/api/v1/verifications").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/verifications").then().statusCode(401)
                .body("error.code", equalTo("UNAUTHENTICATED"));
        String readOnly = given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON)
                .body("{\"mode\":\"test\",\"scopes\":[\"subjects:read\"]}").post("/admin/v1/applications/" + app.id() + "/keys")
                .then().statusCode(201).extract().path("key");
        as(readOnly).header("Idempotency-Key", "x1").body("{\"external_user_id\":\"u\"}").post("/api/v1/verifications")
                .then().statusCode(403).body("error.code", equalTo("FORBIDDEN"));
    }

    @Test
    void idempotencyReplaysAndConflicts() {
        String key = "idem-" + System.nanoTime();
        String body = "{\"external_user_id\":\"idem-user\"}";
        String first = as(app.testKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications").then().statusCode(200).extract().asString();
        String second = as(app.testKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications").then().statusCode(200).extract().asString();
        assertEquals(first, second);
        as(app.testKey()).header("Idempotency-Key", key).body("{\"external_user_id\":\"other\"}").post("/api/v1/verifications")
                .then().statusCode(409).body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
        // the same key under the live key is another scope
        as(app.liveKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications").then().statusCode(200);
    }

    @Test
    void creationAnswersExactlyWhatTheOrmReadsBackForEveryField() throws Exception {
        // the creation writes the key, the row and its event in one statement; Hibernate reads the row back
        Fixtures.App hooked = Fixtures.app("http://127.0.0.1:9/hooks");
        String full = ",\"document_types\":[\"passport\",\"national_id\"],\"return_url\":\"https://client.example/done\","
                + "\"locale\":\"ht\",\"reference\":\"Kòd-ref ✓\",\"metadata\":{\"note\":\"Kòb — 日本\",\"n\":1.5,"
                + "\"nested\":{\"list\":[1,null,true],\"empty\":{}}}";
        ObjectMapper plainJson = new ObjectMapper();
        for (String extra : List.of("", full)) {
            String key = "orm-" + System.nanoTime();
            String body = "{\"external_user_id\":\"orm-ü-" + System.nanoTime() + "\"" + extra + "}";
            Response created = as(hooked.testKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications");
            assertEquals(200, created.statusCode(), created.asString());
            String id = created.path("id");
            Verification orm = TestSupport.run(() -> Panache.withSession(() -> Verification.<Verification>findById(id)));
            String url = created.path("verification_url");
            assertEquals(json.writeValueAsString(VerificationView.created(json, orm, url)), created.asString(), body);
            assertEquals(ApiKeys.hash(url.substring(url.lastIndexOf('/') + 1)), orm.pageTokenHash);
            @SuppressWarnings("unchecked") Map<String, Object> request = plainJson.readValue(body, Map.class);
            assertEquals(request.get("external_user_id"), orm.externalUserId);
            assertEquals(request.getOrDefault("document_types", VerificationService.DOCUMENT_TYPES), List.of(orm.documentTypes));
            assertEquals(request.get("return_url"), orm.returnUrl);
            assertEquals(request.getOrDefault("locale", "fr"), orm.locale);
            assertEquals(request.get("reference"), orm.reference);
            assertEquals(request.get("metadata"), orm.metadata == null ? null : plainJson.readValue(orm.metadata, Map.class));
            assertEquals(List.of("standard", "HT", 1, List.of()), List.of(orm.level, orm.country, orm.attempts, List.of(orm.reasonCodes)));
            assertEquals(orm.createdAt, orm.updatedAt);
            assertTrue(orm.expiresAt.isAfter(orm.createdAt));
            assertEquals(java.util.Arrays.asList(null, null, null, null, null, null, null, null), java.util.Arrays.asList(orm.documentType,
                    orm.consentedAt, orm.result, orm.reasonCode, orm.completedAt, orm.verifiedAt, orm.imagesErasedAt, null));

            // its event: verification.created at the creation's time, the read shape of the row as Hibernate maps it
            Row event = pool.preparedQuery("SELECT id, type, body, created_at FROM kyc.outbox_events WHERE object_id = $1")
                    .execute(Tuple.of(id)).await().atMost(Duration.ofSeconds(10)).iterator().next();
            assertEquals("verification.created", event.getString("type"));
            assertEquals(orm.createdAt, event.getOffsetDateTime("created_at").toInstant());
            String eventBody = event.getBuffer("body").toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(created.<String>path("created_at"), plainJson.readValue(eventBody, Map.class).get("created_at"));
            assertTrue(eventBody.endsWith(",\"data\":{\"object\":" + json.writeValueAsString(VerificationView.of(json, orm)) + "}}"),
                    eventBody);
            assertEquals(1L, pool.preparedQuery("SELECT count(*) FROM kyc.outbox_deliveries WHERE event_id = $1")
                    .execute(Tuple.of(event.getString("id"))).await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0));

            var again = as(hooked.testKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications").then()
                    .statusCode(200).header("Idempotent-Replayed", "true").extract();
            assertEquals(created.asString(), again.asString());
        }
        as(hooked.testKey()).body("{\"external_user_id\":\"no-key\"}").post("/api/v1/verifications").then().statusCode(400)
                .body("error.code", equalTo("IDEMPOTENCY_KEY_REQUIRED"));
    }

    @Test
    void anUndeclaredReturnUrlIsRefusedAndLeavesTheKeyFree() throws Exception {
        String key = "ret-" + System.nanoTime();
        String bad = "{\"external_user_id\":\"ret-user\",\"return_url\":\"https://evil.example/done\"}";
        String good = "{\"external_user_id\":\"ret-user\",\"return_url\":\"https://client.example/done\"}";
        as(app.testKey()).header("Idempotency-Key", key).body(bad).post("/api/v1/verifications").then().statusCode(400)
                .body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo("return_url"));
        String first = as(app.testKey()).header("Idempotency-Key", key).body(good).post("/api/v1/verifications").then()
                .statusCode(200).extract().asString();
        as(app.testKey()).header("Idempotency-Key", key).body(bad).post("/api/v1/verifications").then().statusCode(409)
                .body("error.code", equalTo("IDEMPOTENCY_CONFLICT"));
        assertEquals(first, as(app.testKey()).header("Idempotency-Key", key).body(good).post("/api/v1/verifications").then()
                .statusCode(200).extract().asString());
        assertEquals(1L, pool.preparedQuery("SELECT count(*) FROM kyc.verifications WHERE application_id = $1"
                + " AND external_user_id = 'ret-user'").execute(Tuple.of(app.id())).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong(0));
        // the key names the request as before: the route and the request with its defaults
        String named = "POST /api/v1/verifications " + json.writeValueAsString(new VerificationService.CreateRequest("ret-user",
                "standard", "HT", VerificationService.DOCUMENT_TYPES, "https://client.example/done", "fr", null, null));
        assertEquals(Idempotency.sha256(named), pool.preparedQuery("SELECT request_hash FROM kyc.idempotency_keys"
                + " WHERE owner_id = $1 AND idempotency_key = $2").execute(Tuple.of(app.id(), key))
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0));
    }

    @Inject
    Pool pool;

    @Test
    void concurrentIdenticalCreatesMakeOneVerification() throws Exception {
        String key = "race-" + System.nanoTime();
        String body = "{\"external_user_id\":\"race-user\"}";
        ExecutorService pool = Executors.newFixedThreadPool(30);
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            calls.add(() -> as(app.testKey()).header("Idempotency-Key", key).body(body).post("/api/v1/verifications"));
        }
        Set<String> ids = new HashSet<>();
        int ok = 0;
        for (Future<Response> f : pool.invokeAll(calls)) {
            Response r = f.get();
            if (r.statusCode() == 200) {
                ok++;
                ids.add(r.path("id"));
            } else {
                assertEquals(409, r.statusCode(), r.asString());
                assertEquals("IDEMPOTENCY_KEY_IN_USE", r.path("error.code"));
            }
        }
        pool.shutdown();
        assertTrue(ok >= 1);
        assertEquals(1, ids.size(), "one verification for 30 identical requests");
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/race-user/status").then().statusCode(200)
                .body("status", equalTo("unverified"));
    }

    @Test
    void rateLimitPerApplicationWithRetryAfter() {
        Fixtures.App other = Fixtures.app(null);
        Response limited = null;
        for (int i = 0; i < 200 && limited == null; i++) {
            Response r = as(app.testKey()).header("Idempotency-Key", "rl-" + i + "-" + System.nanoTime())
                    .body("{\"external_user_id\":\"rl\"}").post("/api/v1/verifications");
            if (r.statusCode() == 429) {
                limited = r;
            } else {
                assertEquals(200, r.statusCode());
            }
        }
        assertTrue(limited != null, "the bucket runs out");
        limited.then().body("error.code", equalTo("RATE_LIMITED")).header("Retry-After", matchesPattern("\\d+"));
        // another application has its own bucket
        Fixtures.create(other.testKey(), "rl");
        // time refills the bucket
        clock.advance(Duration.ofMinutes(1));
        Fixtures.create(app.testKey(), "rl");
    }

    @Test
    void cancelRetryAndTheirConflicts() {
        String id = Fixtures.create(app.testKey(), "cancel-user");
        as(app.testKey()).post("/api/v1/verifications/" + id + "/retry").then().statusCode(409).body("error.code", equalTo("VERIFICATION_NOT_RETRYABLE"));
        as(app.testKey()).post("/api/v1/verifications/" + id + "/cancel").then().statusCode(200).body("status", equalTo("cancelled"))
                .body("reason_code", equalTo("cancelled_by_client")).body("completed_at", notNullValue());
        as(app.testKey()).post("/api/v1/verifications/" + id + "/cancel").then().statusCode(409).body("error.code", equalTo("VERIFICATION_NOT_CANCELLABLE"));
        as(app.testKey()).post("/api/v1/verifications/" + id + "/proof").then().statusCode(409).body("error.code", equalTo("VERIFICATION_NOT_VERIFIED"));

        String r = Fixtures.create(app.testKey(), "retry-user");
        for (int attempt = 1; attempt <= 3; attempt++) {
            Fixtures.complete(app.testKey(), r, "retry_required");
            as(app.testKey()).get("/api/v1/verifications/" + r).then().body("status", equalTo("retry_required"))
                    .body("reason_code", equalTo("document_blurry"));
            if (attempt < 3) {
                as(app.testKey()).post("/api/v1/verifications/" + r + "/retry").then().statusCode(200).body("id", equalTo(r))
                        .body("status", equalTo("created")).body("verification_url", startsWith("http://localhost:8081/v/"));
            }
        }
        as(app.testKey()).post("/api/v1/verifications/" + r + "/retry").then().statusCode(409).body("error.code", equalTo("MAX_ATTEMPTS_REACHED"));
        as(app.testKey()).post("/api/v1/verifications/" + r + "/cancel").then().statusCode(200).body("status", equalTo("cancelled"));
        Fixtures.complete(app.testKey(), Fixtures.create(app.testKey(), "v-user"), "verified");
    }

    @Test
    void otherApplicationsAndModesSee404() {
        String id = Fixtures.create(app.testKey(), "iso-user");
        Fixtures.App other = Fixtures.app(null);
        for (String key : List.of(other.testKey(), app.liveKey())) {
            as(key).get("/api/v1/verifications/" + id).then().statusCode(404).body("error.code", equalTo("VERIFICATION_NOT_FOUND"));
            as(key).post("/api/v1/verifications/" + id + "/cancel").then().statusCode(404);
            as(key).post("/api/v1/verifications/" + id + "/retry").then().statusCode(404);
            as(key).post("/api/v1/verifications/" + id + "/proof").then().statusCode(404);
        }
        as(app.testKey()).get("/api/v1/verifications/kyc_ver_notanid").then().statusCode(404)
                .body("error.code", equalTo("VERIFICATION_NOT_FOUND"));
        as(app.testKey()).get("/api/v1/verifications/kyc_ver_01ARZ3NDEKTSV4RRFFQ69G5FAV").then().statusCode(404)
                .body("error.code", equalTo("VERIFICATION_NOT_FOUND"));
        String noRead = given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON)
                .body("{\"mode\":\"test\",\"scopes\":[\"subjects:read\"]}").post("/admin/v1/applications/" + app.id() + "/keys")
                .then().statusCode(201).extract().path("key");
        as(noRead).get("/api/v1/verifications/" + id).then().statusCode(403).body("error.code", equalTo("FORBIDDEN"));
        as(app.liveKey()).body("{\"outcome\":\"verified\"}").post("/api/v1/test_helpers/verifications/" + id + "/complete")
                .then().statusCode(403).body("error.code", equalTo("FORBIDDEN"));
    }

    @Test
    void readByIdAnswersExactlyWhatTheOrmMapsForEveryField() throws Exception {
        // GET by id reads through the plain reactive client; cancel, complete and proof still go through Hibernate
        String full = Fixtures.createWith(app.testKey(), "{\"external_user_id\":\"read-ü-1\",\"document_types\":[\"passport\",\"national_id\"],"
                + "\"return_url\":\"https://client.example/done\",\"locale\":\"ht\",\"reference\":\"Kòd-ref ✓\",\"metadata\":"
                + "{\"note\":\"Kòb pou machandiz — 日本\",\"n\":1.5,\"big\":12345678901,\"nested\":{\"list\":[1,\"de\",null,true],\"empty\":{}}}}");
        String bare = Fixtures.create(app.testKey(), "read-2");
        String verified = Fixtures.createWith(app.testKey(), "{\"external_user_id\":\"read-3\",\"metadata\":{\"k\":\"v\"}}");
        String rejected = Fixtures.createWith(app.testKey(), "{\"external_user_id\":\"read-4\",\"document_types\":[\"driver_license\"]}");
        String retried = Fixtures.create(app.testKey(), "read-5");
        Map<String, Map<String, Object>> ormAnswers = new java.util.HashMap<>();
        ormAnswers.put(verified, as(app.testKey()).body("{\"outcome\":\"verified\"}")
                .post("/api/v1/test_helpers/verifications/" + verified + "/complete").then().statusCode(200).extract().path(""));
        ormAnswers.put(rejected, as(app.testKey()).body("{\"outcome\":\"rejected\",\"reason_codes\":[\"face_mismatch\",\"document_expired\"]}")
                .post("/api/v1/test_helpers/verifications/" + rejected + "/complete").then().statusCode(200).extract().path(""));
        ormAnswers.put(full, as(app.testKey()).post("/api/v1/verifications/" + full + "/cancel").then().statusCode(200).extract().path(""));
        Fixtures.complete(app.testKey(), retried, "retry_required");
        as(app.testKey()).post("/api/v1/verifications/" + retried + "/retry").then().statusCode(200);
        ormAnswers.put(retried, as(app.testKey()).body("{\"status\":\"document_submitted\"}")
                .post("/api/v1/test_helpers/verifications/" + retried + "/advance").then().statusCode(200).extract().path(""));

        var onPage = Fixtures.createFull(app.testKey(), "{\"external_user_id\":\"read-6\",\"document_types\":[\"national_id\"]}");
        String paged = onPage.path("id");
        String page = java.net.URI.create(onPage.path("verification_url")).getPath();
        given().get(page).then().statusCode(200);
        given().redirects().follow(false).formParam("decision", "accept").post(page + "/consent").then().statusCode(303);
        given().redirects().follow(false).formParam("outcome", "verified").post(page + "/test_outcome").then().statusCode(303);

        ApiPrincipal principal = new ApiPrincipal("key", app.id(), "test", Set.of("verifications:read"), true);
        for (String id : List.of(full, bare, verified, rejected, retried, paged)) {
            var got = as(app.testKey()).get("/api/v1/verifications/" + id).then().statusCode(200).extract();
            Verification orm = TestSupport.run(() -> Panache.withSession(() -> Verification.<Verification>findById(id)));
            Verification plain = TestSupport.run(() -> service().get(principal, id));
            int compared = 0;
            for (Field f : Verification.class.getDeclaredFields()) {
                // Panache turns the public fields into protected ones with accessors; the enhancer's own are transient
                if (!Modifier.isStatic(f.getModifiers()) && !Modifier.isTransient(f.getModifiers())) {
                    f.setAccessible(true);
                    assertTrue(Objects.deepEquals(f.get(orm), f.get(plain)), id + " " + f.getName() + ": " + f.get(orm) + " != " + f.get(plain));
                    compared++;
                }
            }
            assertEquals(ht.platform.kyc.model.VerificationStore.COLUMNS.split(", ").length, compared, "every mapped field is a column fromRow reads");
            ObjectMapper plainJson = new ObjectMapper(); // the service's mapper refuses nulls in maps, which a read shape carries
            assertEquals(plainJson.convertValue(VerificationView.of(json, orm), Map.class), plainJson.readValue(got.asString(), Map.class), id);
            if (ormAnswers.containsKey(id)) {
                assertEquals(ormAnswers.get(id), got.path(""), id);
            }
        }
        Map<String, Object> cancelled = as(app.testKey()).get("/api/v1/verifications/" + full).then().extract().path("");
        assertEquals("cancelled", cancelled.get("status"));
        assertEquals("Kòd-ref ✓", cancelled.get("reference"));
        assertEquals(Map.of("note", "Kòb pou machandiz — 日本", "n", 1.5f, "big", 12345678901L,
                "nested", Map.of("list", java.util.Arrays.asList(1, "de", null, true), "empty", Map.of())), cancelled.get("metadata"));
        Verification plain = TestSupport.run(() -> service().get(principal, full));
        assertEquals(List.of("passport", "national_id"), List.of(plain.documentTypes));
        assertEquals("https://client.example/done", plain.returnUrl);
        assertEquals("ht", plain.locale);
        assertNotNull(plain.pageTokenHash);
        assertEquals(2, TestSupport.run(() -> service().get(principal, retried)).attempts);
        Verification ok = TestSupport.run(() -> service().get(principal, verified));
        assertNotNull(ok.verifiedAt);
        assertNotNull(ok.result);
        Verification consented = TestSupport.run(() -> service().get(principal, paged));
        assertEquals("verified", consented.status);
        assertNotNull(consented.consentedAt);
        assertEquals("national_id", consented.documentType);
        assertEquals(List.of("face_mismatch", "document_expired"), List.of(TestSupport.run(() -> service().get(principal, rejected)).reasonCodes));
    }

    @Inject
    ObjectMapper json;

    @Test
    void everyStatusIsReachableInTestMode() {
        for (String outcome : List.of("verified", "rejected", "retry_required", "unable_to_verify", "technical_error")) {
            String id = Fixtures.create(app.testKey(), "all-" + outcome);
            as(app.testKey()).body("{\"outcome\":\"" + outcome + "\"}").post("/api/v1/test_helpers/verifications/" + id + "/complete")
                    .then().statusCode(200).body("status", equalTo(outcome)).body("result.checks.face.status", notNullValue())
                    .body("result.decided_at", notNullValue());
        }
        String id = Fixtures.create(app.testKey(), "steps");
        for (String step : List.of("started", "document_submitted", "processing")) {
            as(app.testKey()).body("{\"status\":\"" + step + "\"}").post("/api/v1/test_helpers/verifications/" + id + "/advance")
                    .then().statusCode(200).body("status", equalTo(step));
        }
        as(app.testKey()).post("/api/v1/verifications/" + id + "/cancel").then().statusCode(409);
        String e = Fixtures.create(app.testKey(), "exp");
        as(app.testKey()).post("/api/v1/test_helpers/verifications/" + e + "/expire").then().statusCode(200).body("status", equalTo("expired"));
        as(app.testKey()).body("{\"outcome\":\"rejected\",\"reason_codes\":[\"face_mismatch\"]}")
                .post("/api/v1/test_helpers/verifications/" + Fixtures.create(app.testKey(), "rj") + "/complete")
                .then().statusCode(200).body("reason_code", equalTo("face_mismatch")).body("reason_codes", hasItem("face_mismatch"));
        as(app.testKey()).body("{\"outcome\":\"approved\"}").post("/api/v1/test_helpers/verifications/" + e + "/complete")
                .then().statusCode(400).body("error.param", equalTo("outcome"));
        as(app.testKey()).body("{\"outcome\":\"rejected\",\"reason_codes\":[\"bad_luck\"]}").post("/api/v1/test_helpers/verifications/" + e + "/complete")
                .then().statusCode(400).body("error.param", equalTo("reason_codes"));
    }

    @Test
    void schedulerExpiresDueVerifications() {
        String id = Fixtures.create(app.testKey(), "expiring");
        clock.advance(Duration.ofHours(25));
        // a batch takes at most 200; other tests' open verifications are due too
        while (ht.platform.kyc.TestSupport.run(() -> sweeps.expireDue()) >= 200) { }
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("expired"))
                .body("reason_code", equalTo("session_expired"));
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/expiring/status").then()
                .body("status", equalTo("unverified"));
    }

    @Test
    void aDecisionLostInProcessingEndsTechnicalErrorNotStuck() throws Exception {
        String id = Fixtures.create(app.testKey(), "stuck");
        as(app.testKey()).body("{\"status\":\"processing\"}").post("/api/v1/test_helpers/verifications/" + id + "/advance")
                .then().statusCode(200).body("status", equalTo("processing"));
        // a fresh processing verification is left alone (its decision may still be running)
        clock.advance(Duration.ofMinutes(4));
        ht.platform.kyc.TestSupport.run(() -> sweeps.failStuckProcessing());
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("processing"));
        clock.advance(Duration.ofMinutes(2));
        int ended = ht.platform.kyc.TestSupport.run(() -> sweeps.failStuckProcessing());
        assertTrue(ended >= 1);
        as(app.testKey()).get("/api/v1/verifications/" + id).then().body("status", equalTo("technical_error"))
                .body("reason_code", equalTo("processing_error")).body("completed_at", org.hamcrest.Matchers.notNullValue());
        try (java.sql.Connection db = TestDatabase.connect();
             java.sql.PreparedStatement ps = db.prepareStatement("SELECT type FROM kyc.outbox_events WHERE object_id = ? ORDER BY created_at")) {
            ps.setString(1, id);
            java.util.List<String> types = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.add(rs.getString(1));
                }
            }
            // the helper's steps share one instant, so only the set of the middle ones is ordered by time
            assertEquals(5, types.size(), types.toString());
            assertEquals("verification.created", types.get(0));
            assertEquals(java.util.Set.of("verification.started", "verification.document_submitted", "verification.processing"),
                    java.util.Set.copyOf(types.subList(1, 4)));
            assertEquals("verification.technical_error", types.get(4));
        }
    }

    @Inject
    ht.platform.kyc.service.VerificationService verificationService;

    @Inject
    ht.platform.kyc.service.VerificationSweeps sweeps;

    ht.platform.kyc.service.VerificationService service() {
        return verificationService;
    }

    @Test
    void subjectStatusPerApplication() {
        Fixtures.App other = Fixtures.app(null);
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/nobody/status").then().statusCode(404)
                .body("error.code", equalTo("SUBJECT_NOT_FOUND"));
        String a = Fixtures.create(app.testKey(), "same-person");
        String b = Fixtures.create(other.testKey(), "same-person");
        Fixtures.complete(app.testKey(), a, "verified");
        Fixtures.complete(other.testKey(), b, "rejected");
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/same-person/status").then().statusCode(200)
                .body("status", equalTo("verified")).body("level", equalTo("standard")).body("verified_at", notNullValue())
                .body("expires_at", notNullValue()).body("government_registry_checked", equalTo(false));
        given().header("Authorization", "Bearer " + other.testKey()).get("/api/v1/subjects/same-person/status").then().statusCode(200)
                .body("status", equalTo("rejected")).body("level", nullValue());
        given().header("Authorization", "Bearer " + app.liveKey()).get("/api/v1/subjects/same-person/status").then().statusCode(404);
        // validity runs out after 365 days
        clock.advance(Duration.ofDays(366));
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/same-person/status").then().body("status", equalTo("expired"));
        clock.reset();
        // processing while one is under way
        String p = Fixtures.create(other.testKey(), "same-person");
        as(other.testKey()).body("{\"status\":\"started\"}").post("/api/v1/test_helpers/verifications/" + p + "/advance").then().statusCode(200);
        given().header("Authorization", "Bearer " + other.testKey()).get("/api/v1/subjects/same-person/status").then().body("status", equalTo("processing"));
        // three rejections restrict; the operator can restrict too
        for (int i = 0; i < 3; i++) {
            Fixtures.complete(other.testKey(), Fixtures.create(other.testKey(), "serial"), "rejected");
        }
        given().header("Authorization", "Bearer " + other.testKey()).get("/api/v1/subjects/serial/status").then().body("status", equalTo("restricted"));
        given().header("Authorization", Fixtures.ADMIN).contentType(ContentType.JSON).body("{\"reason\":\"fraud\",\"mode\":\"test\"}")
                .post("/admin/v1/applications/" + app.id() + "/subjects/same-person/restrict").then().statusCode(204);
        given().header("Authorization", "Bearer " + app.testKey()).get("/api/v1/subjects/same-person/status").then().body("status", equalTo("restricted"));
        given().header("Authorization", "Bearer " + other.testKey()).get("/api/v1/subjects/same-person/status").then().body("status", everyItemOr("processing"));
    }

    private static org.hamcrest.Matcher<Object> everyItemOr(String s) {
        return equalTo(s);
    }
}
