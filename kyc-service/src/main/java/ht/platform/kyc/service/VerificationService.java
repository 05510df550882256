package ht.platform.kyc.service;

import ht.platform.kyc.model.VerificationView;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.events.EventOutbox;
import ht.platform.kyc.model.Application;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.provider.BuiltInChecks;
import ht.platform.kyc.provider.CheckResult;
import ht.platform.kyc.provider.ImageQuality;
import ht.platform.kyc.provider.Evidence;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.Idempotency;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.reactive.mutiny.Mutiny;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** Verifications: creation, reads, guarded transitions, the hosted flow's steps and the decision. */
@ApplicationScoped
@RegisterForReflection(ignoreNested = false)
public class VerificationService {

    private static final Logger LOG = Logger.getLogger(VerificationService.class);
    public static final String PREFIX = "kyc_ver_";
    public static final List<String> DOCUMENT_TYPES = List.of("national_id", "driver_license", "passport");
    public static final List<String> LOCALES = List.of("fr", "en", "ht");
    public static final Set<String> TEST_OUTCOMES = Set.of("verified", "rejected", "retry_required", "unable_to_verify", "technical_error");

    public record CreateRequest(@JsonProperty("external_user_id") String externalUserId,
                                @JsonProperty("required_level") String requiredLevel,
                                String country,
                                @JsonProperty("document_types") List<String> documentTypes,
                                @JsonProperty("return_url") String returnUrl,
                                String locale,
                                String reference,
                                JsonNode metadata) { }

    /** A verification whose page may show {@code verificationUrl} (create and retry only). */
    public record Created(Verification verification, String verificationUrl) { }

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    KycSettings settings;

    @Inject
    Idempotency idempotency;

    @Inject
    RateLimiter rateLimiter;

    @Inject
    EventOutbox outbox;

    @Inject
    SecretBox secretBox;

    @Inject
    DecisionEngine engine;

    @Inject
    Pool pool;

    @Inject
    ImageWorkers workers;

    private static final String BY_ID = "SELECT " + Verification.COLUMNS
            + " FROM kyc.verifications WHERE id = $1 AND application_id = $2 AND mode = $3";

    @ConfigProperty(name = "public-base-url")
    String publicBaseUrl;

    // ---------------------------------------------------------------- API

    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, CreateRequest body) {
        rateLimiter.acquire(caller.ownerId());
        String key = idempotency.validateKey(idempotencyKey, true);
        CreateRequest req = validate(body);
        String fingerprint = idempotency.fingerprint("POST /api/v1/verifications", req);
        return idempotency.run(caller, key, fingerprint, () -> Application.<Application>findById(caller.ownerId()).chain(app -> {
            if (req.returnUrl() != null && !List.of(app.returnUrls).contains(req.returnUrl())) {
                throw ApiException.invalid("return_url", "return_url must equal exactly one of the application's declared return URLs");
            }
            Instant now = now();
            Verification v = new Verification();
            v.id = Ids.ulid(PREFIX, clock);
            v.applicationId = app.id;
            v.mode = caller.mode();
            v.externalUserId = req.externalUserId();
            v.status = "created";
            v.level = req.requiredLevel();
            v.country = req.country();
            v.documentTypes = req.documentTypes().toArray(String[]::new);
            v.returnUrl = req.returnUrl();
            v.locale = req.locale();
            v.reference = req.reference();
            v.metadata = req.metadata() == null ? null : req.metadata().toString();
            v.attempts = 1;
            v.reasonCodes = new String[0];
            v.createdAt = now;
            v.updatedAt = now;
            v.expiresAt = now.plus(settings.verification().validity());
            String token = ApiKeys.generate("");
            v.pageTokenHash = ApiKeys.hash(token);
            return v.persist().chain(() -> Panache.getSession()).chain(s -> outbox.statusChanged(s, v, now))
                    .map(x -> StoredResponse.fresh(200, write(VerificationView.created(json, v, pageUrl(token)), null)));
        }));
    }

    CreateRequest validate(CreateRequest b) {
        if (b == null) {
            throw ApiException.invalid("external_user_id", "external_user_id is required");
        }
        if (b.externalUserId() == null || b.externalUserId().isEmpty()) {
            throw ApiException.invalid("external_user_id", "external_user_id is required");
        }
        if (b.externalUserId().length() > 200) {
            throw ApiException.invalid("external_user_id", "external_user_id must be at most 200 characters");
        }
        String level = b.requiredLevel() == null ? "standard" : b.requiredLevel();
        if (!level.equals("standard")) {
            throw ApiException.invalid("required_level", "required_level must be 'standard'");
        }
        String country = b.country() == null ? "HT" : b.country();
        if (!country.equals("HT")) {
            throw ApiException.invalid("country", "country must be 'HT'");
        }
        List<String> types = b.documentTypes() == null ? DOCUMENT_TYPES : b.documentTypes();
        if (types.isEmpty()) {
            throw ApiException.invalid("document_types", "document_types must not be empty");
        }
        LinkedHashSet<String> unique = new LinkedHashSet<>();
        for (String t : types) {
            if (t == null || !DOCUMENT_TYPES.contains(t)) {
                throw ApiException.invalid("document_types", "Each document type must be one of " + DOCUMENT_TYPES);
            }
            if (!unique.add(t)) {
                throw ApiException.invalid("document_types", "document_types must not repeat '" + t + "'");
            }
        }
        if (b.returnUrl() != null && (b.returnUrl().isEmpty() || b.returnUrl().length() > 2048)) {
            throw ApiException.invalid("return_url", "return_url must be one of the application's declared return URLs");
        }
        String locale = b.locale() == null ? "fr" : b.locale();
        if (!LOCALES.contains(locale)) {
            throw ApiException.invalid("locale", "locale must be one of " + LOCALES);
        }
        if (b.reference() != null && b.reference().length() > 500) {
            throw ApiException.invalid("reference", "reference must be at most 500 characters");
        }
        if (b.metadata() != null && !b.metadata().isNull()) {
            if (!b.metadata().isObject()) {
                throw ApiException.invalid("metadata", "metadata must be a JSON object");
            }
            if (b.metadata().toString().length() > 16_384) {
                throw ApiException.invalid("metadata", "metadata must be at most 16 KiB of JSON");
            }
        }
        JsonNode metadata = b.metadata() == null || b.metadata().isNull() ? null : b.metadata();
        return new CreateRequest(b.externalUserId(), level, country, List.copyOf(unique), b.returnUrl(), locale, b.reference(), metadata);
    }

    /**
     * Read by id: one prepared statement on the plain reactive client, no ORM session (see the README's
     * benchmarks). The same 404s as {@link #owned}; the verification it answers is detached.
     */
    public Uni<Verification> get(ApiPrincipal caller, String id) {
        if (!Ids.isUlid(id, PREFIX)) {
            return Uni.createFrom().failure(notFound(id));
        }
        return pool.preparedQuery(BY_ID).execute(Tuple.of(id, caller.ownerId(), caller.mode()))
                .map(rows -> Rows.single(rows, Verification::fromRow, () -> notFound(id)));
    }

    /** The caller's verifications, newest first, optionally of one status, after the cursor (a verification id). */
    public Uni<List<Verification>> latest(ApiPrincipal caller, String status, String startingAfter, int limit) {
        if (status != null && !Verification.IN_PROGRESS.contains(status) && !Verification.FINAL.contains(status)) {
            throw ApiException.invalid("status", "Unknown verification status '" + status + "'");
        }
        return pool.preparedQuery("SELECT " + Verification.COLUMNS + " FROM kyc.verifications WHERE application_id = $1"
                        + " AND mode = $2 AND ($3::text IS NULL OR status = $3) AND ($4::text IS NULL OR id < $4)"
                        + " ORDER BY id DESC LIMIT $5")
                .execute(Tuple.of(caller.ownerId(), caller.mode(), status, startingAfter, limit))
                .map(rows -> {
                    List<Verification> out = new ArrayList<>();
                    rows.forEach(r -> out.add(Verification.fromRow(r)));
                    return out;
                });
    }

    public Uni<Verification> cancel(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> {
            if (!Verification.CANCELLABLE.contains(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_CANCELLABLE", "A verification in status '" + v.status + "' cannot be cancelled");
            }
            return finish(v, "cancelled", List.of("cancelled_by_client"), null);
        }));
    }

    public Uni<Created> retry(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> {
            if (!"retry_required".equals(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_RETRYABLE", "Only a verification in status 'retry_required' can be retried");
            }
            if (v.attempts >= settings.verification().maxAttempts()) {
                throw new ApiException(409, "MAX_ATTEMPTS_REACHED",
                        "This verification reached its " + settings.verification().maxAttempts() + " attempts; create a new one");
            }
            Instant now = now();
            String token = ApiKeys.generate("");
            v.pageTokenHash = ApiKeys.hash(token);
            v.attempts += 1;
            v.status = "created";
            v.consentedAt = null;
            v.documentType = null;
            v.result = null;
            v.reasonCode = null;
            v.reasonCodes = new String[0];
            v.completedAt = null;
            v.updatedAt = now;
            v.expiresAt = now.plus(settings.verification().validity());
            return eraseImages(v, now).replaceWith(new Created(v, pageUrl(token)));
        }));
    }

    /** The caller's verification, locked for a change in the current transaction. */
    public Uni<Verification> owned(ApiPrincipal caller, String id) {
        if (!Ids.isUlid(id, PREFIX)) {
            return Uni.createFrom().failure(notFound(id));
        }
        return Verification.<Verification>findById(id, LockModeType.PESSIMISTIC_WRITE).map(v -> {
            if (v == null || !v.applicationId.equals(caller.ownerId()) || !v.mode.equals(caller.mode())) {
                throw notFound(id);
            }
            return v;
        });
    }

    private static ApiException notFound(String id) {
        return new ApiException(404, "VERIFICATION_NOT_FOUND", "No verification " + id);
    }

    public String created(Created c) {
        return write(VerificationView.created(json, c.verification(), c.verificationUrl()), null);
    }

    public String pageUrl(String token) {
        return publicBaseUrl.replaceAll("/+$", "") + "/v/" + token;
    }

    // ---------------------------------------------------------------- test helpers

    public Uni<Verification> completeForTest(ApiPrincipal caller, String id, String outcome, List<String> reasonCodes) {
        List<String> reasons = testReasons(outcome, reasonCodes);
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> completeSimulated(v, outcome, reasons)));
    }

    public List<String> testReasons(String outcome, List<String> reasonCodes) {
        if (outcome == null || !TEST_OUTCOMES.contains(outcome)) {
            throw ApiException.invalid("outcome", "outcome must be one of " + TEST_OUTCOMES);
        }
        List<String> reasons = reasonCodes == null ? new ArrayList<>() : new ArrayList<>(reasonCodes);
        for (String r : reasons) {
            if (r == null || !DecisionEngine.REASONS.contains(r)) {
                throw ApiException.invalid("reason_codes", "Unknown reason code '" + r + "'");
            }
        }
        if (outcome.equals("verified") && !reasons.isEmpty()) {
            throw ApiException.invalid("reason_codes", "A verified outcome has no reason codes");
        }
        if (reasons.isEmpty()) {
            switch (outcome) {
                case "rejected" -> reasons.add("document_expired");
                case "retry_required" -> reasons.add("document_blurry");
                case "unable_to_verify" -> reasons.add("document_type_not_supported");
                case "technical_error" -> reasons.add("processing_error");
                default -> { }
            }
        }
        return reasons;
    }

    /** Test mode: drives the verification through processing to the chosen outcome (nothing is uploaded). */
    Uni<Verification> completeSimulated(Verification v, String outcome, List<String> reasons) {
        if (!v.test()) {
            throw new ApiException(403, "FORBIDDEN", "Simulated outcomes exist for test-mode verifications only");
        }
        if (!Set.of("created", "started", "document_submitted", "processing").contains(v.status)) {
            throw new ApiException(409, "VERIFICATION_NOT_IN_PROGRESS", "A verification in status '" + v.status + "' cannot be completed");
        }
        Instant now = now();
        if (v.documentType == null) {
            v.documentType = v.documentTypes[0];
        }
        Uni<Void> toProcessing = "processing".equals(v.status) ? Uni.createFrom().voidItem() : move(v, "processing", now);
        return toProcessing.chain(() -> finish(v, outcome, reasons, simulatedResult(v, outcome, reasons, now)));
    }

    private String simulatedResult(Verification v, String outcome, List<String> reasons, Instant now) {
        List<CheckResult> results = new ArrayList<>();
        boolean ok = outcome.equals("verified");
        results.add(ok ? CheckResult.passed("document_image") : new CheckResult("document_image",
                outcome.equals("unable_to_verify") ? ht.platform.kyc.provider.CheckStatus.not_performed
                        : ht.platform.kyc.provider.CheckStatus.failed, reasons, outcome.equals("retry_required"), Map.of()));
        results.add(ok ? CheckResult.passed("mrz") : CheckResult.notPerformed("mrz", "simulated"));
        results.add(ok ? CheckResult.passed("document_validity", Map.of("expiry_valid", true)) : CheckResult.notPerformed("document_validity", "simulated"));
        results.add(ok ? CheckResult.passed("face") : CheckResult.notPerformed("face", "simulated"));
        return write(engine.result(v.documentType, v.country, results, now, true), null);
    }

    /** Test helper: moves a test verification one step forward to a non-final status (started, document_submitted, processing). */
    public Uni<Verification> advanceForTest(ApiPrincipal caller, String id, String status) {
        List<String> order = List.of("created", "started", "document_submitted", "processing");
        if (status == null || !order.subList(1, 4).contains(status)) {
            throw ApiException.invalid("status", "status must be one of started, document_submitted, processing");
        }
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> {
            int from = order.indexOf(v.status);
            int to = order.indexOf(status);
            if (from < 0 || to <= from) {
                throw new ApiException(409, "INVALID_TRANSITION", "Cannot move from '" + v.status + "' to '" + status + "'");
            }
            Instant now = now();
            if (v.documentType == null && to >= 2) {
                v.documentType = v.documentTypes[0];
            }
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (int i = from + 1; i <= to; i++) {
                String next = order.get(i);
                chain = chain.chain(() -> move(v, next, now));
            }
            return chain.replaceWith(v);
        }));
    }

    /** Test helper: lets the verification's validity run out now, as the scheduler would at expires_at. */
    public Uni<Verification> expireForTest(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> {
            if (!Verification.EXPIRABLE.contains(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_EXPIRABLE", "A verification in status '" + v.status + "' cannot expire");
            }
            return finish(v, "expired", List.of("session_expired"), null);
        }));
    }

    // ---------------------------------------------------------------- expiry

    /** Expires what is due (FOR UPDATE SKIP LOCKED, so replicas share the work); answers how many expired. */
    public Uni<Integer> expireDue() {
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s
                .createNativeQuery("SELECT id FROM kyc.verifications WHERE status IN ('created','started','document_submitted','retry_required')"
                        + " AND expires_at <= :now ORDER BY expires_at LIMIT 200 FOR UPDATE SKIP LOCKED", String.class)
                .setParameter("now", now().atOffset(ZoneOffset.UTC)).getResultList()
                .chain(ids -> {
                    Uni<Integer> chain = Uni.createFrom().item(0);
                    for (String id : ids) {
                        chain = chain.chain(n -> Verification.<Verification>findById(id)
                                .chain(v -> finish(v, "expired", List.of("session_expired"), null)).replaceWith(n + 1));
                    }
                    return chain;
                })));
    }

    /**
     * A decision runs right after the selfie and takes seconds; a verification still {@code processing} long after
     * that lost its decision (the process stopped mid-way). It ends {@code technical_error} (event, images erased)
     * instead of hanging: FOR UPDATE SKIP LOCKED, so replicas share the work. Answers how many were ended.
     */
    public Uni<Integer> failStuckProcessing() {
        return Panache.withTransaction(() -> Panache.getSession().chain(s -> s
                .createNativeQuery("SELECT id FROM kyc.verifications WHERE status = 'processing' AND updated_at <= :before"
                        + " ORDER BY updated_at LIMIT 200 FOR UPDATE SKIP LOCKED", String.class)
                .setParameter("before", now().minus(settings.decision().stuckAfter()).atOffset(ZoneOffset.UTC)).getResultList()
                .chain(ids -> {
                    Uni<Integer> chain = Uni.createFrom().item(0);
                    for (String id : ids) {
                        chain = chain.chain(n -> Verification.<Verification>findById(id).invoke(v -> LOG.warnf(
                                        "verification %s stayed in processing since %s: ending it technical_error", id, v.updatedAt))
                                .chain(v -> finish(v, "technical_error", List.of("processing_error"), null)).replaceWith(n + 1));
                    }
                    return chain;
                })));
    }

    // ---------------------------------------------------------------- hosted flow

    public Uni<Verification> byToken(String token, boolean lock) {
        if (token == null || token.length() != 43) {
            return Uni.createFrom().nullItem();
        }
        var query = Verification.<Verification>find("pageTokenHash", ApiKeys.hash(token));
        return lock ? query.withLock(LockModeType.PESSIMISTIC_WRITE).firstResult() : query.firstResult();
    }

    /** The page's verification as it is, for showing a refused step (no change, no lock); null for an unknown token. */
    public Uni<Verification> view(String token) {
        return Panache.withSession(() -> byToken(token, false));
    }

    /** Opening the page: created → started. Answers null for an unknown token. */
    public Uni<Verification> open(String token) {
        return Panache.withTransaction(() -> byToken(token, true).chain(v -> {
            if (v == null) {
                return Uni.createFrom().nullItem();
            }
            if ("created".equals(v.status)) {
                if (!v.expiresAt.isAfter(now())) {
                    return finish(v, "expired", List.of("session_expired"), null);
                }
                return move(v, "started", now()).replaceWith(v);
            }
            return Uni.createFrom().item(v);
        }));
    }

    public Uni<Verification> consent(String token, boolean accepted) {
        return step(token, Set.of("started"), v -> {
            if (accepted) {
                v.consentedAt = now();
                if (v.documentTypes.length == 1) {
                    v.documentType = v.documentTypes[0];
                }
                return Uni.createFrom().item(v);
            }
            return finish(v, "cancelled", List.of("consent_declined"), null);
        });
    }

    public Uni<Verification> chooseDocument(String token, String type) {
        return step(token, Set.of("started"), v -> {
            if (v.consentedAt == null || type == null || !List.of(v.documentTypes).contains(type)) {
                throw ApiException.invalid("document_type", "Choose one of the offered document types");
            }
            v.documentType = type;
            return Uni.createFrom().item(v);
        });
    }

    /**
     * Live mode: document images (front, back where the document has one) → document_submitted. The page token
     * and the step are checked before any upload is read; each photo's declared size is checked before it is
     * decoded; decoding and metadata stripping run on the bounded {@link ImageWorkers}.
     */
    public Uni<Verification> submitDocument(String token, java.nio.file.Path front, java.nio.file.Path back) {
        return pageStep(token, Set.of("started")).invoke(this::documentAllowed).chain(v -> {
            byte[] rawFront = bounded(front, "front");
            byte[] rawBack = back == null || !BuiltInChecks.TWO_SIDED.contains(v.documentType) ? null : bounded(back, "back");
            if (BuiltInChecks.TWO_SIDED.contains(v.documentType) && rawBack == null) {
                throw ApiException.invalid("back", "This document needs a photo of its back");
            }
            return workers.run(() -> new byte[][] {cleanImage(rawFront, "front"), rawBack == null ? null : cleanImage(rawBack, "back")});
        }).chain(clean -> step(token, Set.of("started"), v -> {
            documentAllowed(v);
            Instant now = now();
            Uni<Void> stored = storeImage(v, "document_front", clean[0], now);
            if (clean[1] != null) {
                stored = stored.chain(() -> storeImage(v, "document_back", clean[1], now));
            }
            return stored.chain(() -> move(v, "document_submitted", now)).replaceWith(v);
        }));
    }

    private void documentAllowed(Verification v) {
        if (v.test()) {
            throw new ApiException(409, "TEST_MODE", "Nothing is uploaded in test mode");
        }
        if (v.consentedAt == null || v.documentType == null) {
            throw new ApiException(409, "STEP_NOT_ALLOWED", "Consent and a document type come first");
        }
    }

    /** Live mode: the selfie → processing, then the automatic decision (images erased once it is made). */
    public Uni<Verification> submitSelfie(String token, java.nio.file.Path selfie) {
        return pageStep(token, Set.of("document_submitted")).chain(v -> {
            byte[] raw = bounded(selfie, "selfie");
            return workers.run(() -> cleanImage(raw, "selfie"));
        }).chain(clean -> step(token, Set.of("document_submitted"), v -> {
            Instant now = now();
            return storeImage(v, "selfie", clean, now).chain(() -> move(v, "processing", now)).replaceWith(v);
        })).chain(v -> "processing".equals(v.status) ? decide(v.id) : Uni.createFrom().item(v));
    }

    /** Test mode on the page: the person picks the outcome. */
    public Uni<Verification> pageTestOutcome(String token, String outcome, String reason) {
        List<String> reasons = testReasons(outcome, reason == null || reason.isBlank() || outcome.equals("verified") ? null : List.of(reason));
        return step(token, Set.of("started"), v -> {
            if (v.consentedAt == null || v.documentType == null) {
                throw new ApiException(409, "STEP_NOT_ALLOWED", "Consent and a document type come first");
            }
            return completeSimulated(v, outcome, reasons);
        });
    }

    private Uni<Verification> step(String token, Set<String> allowed, java.util.function.Function<Verification, Uni<Verification>> work) {
        return Panache.withTransaction(() -> byToken(token, true).chain(v -> {
            if (v == null) {
                throw new ApiException(404, "NOT_FOUND", "This verification link is not valid");
            }
            if (!allowed.contains(v.status)) {
                throw new ApiException(409, "STEP_NOT_ALLOWED", "This step is not available any more");
            }
            if (!v.expiresAt.isAfter(now())) {
                return finish(v, "expired", List.of("session_expired"), null);
            }
            return work.apply(v);
        }));
    }

    /** The page token and the step, checked without a lock and before any upload is read (the step re-checks them). */
    private Uni<Verification> pageStep(String token, Set<String> allowed) {
        return Panache.withSession(() -> byToken(token, false)).map(v -> {
            if (v == null) {
                throw new ApiException(404, "NOT_FOUND", "This verification link is not valid");
            }
            if (!allowed.contains(v.status)) {
                throw new ApiException(409, "STEP_NOT_ALLOWED", "This step is not available any more");
            }
            return v;
        });
    }

    /** Reads one upload and checks the size its header declares, without decoding a pixel. */
    private byte[] bounded(java.nio.file.Path upload, String param) {
        if (upload == null) {
            throw ApiException.invalid(param, "A photo is required");
        }
        byte[] bytes;
        try {
            if (java.nio.file.Files.size(upload) > settings.decision().maxImageBytes()) {
                throw new ApiException(413, "PAYLOAD_TOO_LARGE", "Each photo must be at most 10 MiB", param);
            }
            bytes = java.nio.file.Files.readAllBytes(upload);
        } catch (java.io.IOException e) {
            throw new ApiException(400, "INVALID_REQUEST", "The upload could not be read", param);
        }
        if (bytes.length == 0) {
            throw ApiException.invalid(param, "A photo is required");
        }
        ImageQuality.Size size = ImageQuality.format(bytes) == null ? null : ImageQuality.declaredSize(bytes);
        if (size == null || size.width() <= 0 || size.height() <= 0) {
            throw ApiException.invalid(param, "Photos must be JPEG or PNG images");
        }
        long max = settings.images().maxPixels();
        if (size.pixels() > max) {
            throw new ApiException(413, "IMAGE_TOO_LARGE", "Each photo may have at most " + max / 1_000_000 + " megapixels", param);
        }
        return bytes;
    }

    /** Decodes (bounded, subsampled) and re-encodes the pixels only; runs on the image workers. */
    private byte[] cleanImage(byte[] bytes, String param) {
        var image = ImageQuality.decodeBounded(bytes, settings.images().maxSide());
        if (image == null) {
            throw ApiException.invalid(param, "Photos must be JPEG or PNG images");
        }
        // EXIF and every other metadata block are dropped: only the pixels are kept (and only until the decision).
        return ImageQuality.stripMetadata(image);
    }

    private Uni<Void> storeImage(Verification v, String kind, byte[] bytes, Instant now) {
        byte[] sealed = secretBox.seal(bytes, (v.id + ":" + kind).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return Panache.getSession().chain(s -> s.createNativeQuery("INSERT INTO kyc.verification_images (verification_id, kind, content_type,"
                        + " sealed, created_at) VALUES (:v, :k, :ct, :b, :now) ON CONFLICT (verification_id, kind) DO UPDATE"
                        + " SET sealed = EXCLUDED.sealed, created_at = EXCLUDED.created_at")
                .setParameter("v", v.id).setParameter("k", kind).setParameter("ct", "image/png")
                .setParameter("b", sealed).setParameter("now", now.atOffset(ZoneOffset.UTC)).executeUpdate()).replaceWithVoid();
    }

    /** Loads and opens the images, runs the engine off the event loop, then records the outcome and erases them. */
    Uni<Verification> decide(String id) {
        Uni<Map<String, byte[]>> images = Panache.withSession(() -> Panache.getSession().chain(s -> s
                .createNativeQuery("SELECT kind, sealed FROM kyc.verification_images WHERE verification_id = :v", Object[].class)
                .setParameter("v", id).getResultList())).map(rows -> {
                    Map<String, byte[]> out = new HashMap<>();
                    for (Object[] row : rows) {
                        String kind = (String) row[0];
                        out.put(kind, secretBox.open((byte[]) row[1], (id + ":" + kind).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                    }
                    return out;
                });
        return Panache.withSession(() -> Verification.<Verification>findById(id)).chain(v -> images.chain(imgs -> {
            Instant now = now();
            Evidence evidence = new Evidence(v.documentType, v.country, imgs.get("document_front"), imgs.get("document_back"),
                    imgs.get("selfie"), null, LocalDate.ofInstant(now, ZoneOffset.UTC));
            // on the bounded image workers, never on the event loop, within the decision's time budget
            return workers.run(() -> engine.decide(evidence, now)).ifNoItem().after(settings.decision().timeBudget()).fail();
        })).onFailure().recoverWithItem(e -> {
            LOG.errorf("decision of %s failed: %s", id, e.getClass().getSimpleName());
            return new DecisionEngine.Outcome("technical_error", List.of("processing_error"), null);
        }).chain(outcome -> Panache.withTransaction(() -> Verification.<Verification>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .chain(v -> {
                    if (!"processing".equals(v.status)) {
                        return Uni.createFrom().item(v);
                    }
                    return finish(v, outcome.status(), outcome.reasonCodes(), outcome.result() == null ? null : write(outcome.result(), null));
                })));
    }

    // ---------------------------------------------------------------- transitions

    /** A non-final move, with its event, inside the caller's transaction (the row is locked by the caller). */
    private Uni<Void> move(Verification v, String status, Instant now) {
        v.status = status;
        v.updatedAt = now;
        return Panache.getSession().chain(s -> v.<Verification>persist().chain(() -> s.flush()).chain(() -> outbox.statusChanged(s, v, now)));
    }

    /** Ends an attempt (final status or retry_required): reasons, result, images erased, event. */
    private Uni<Verification> finish(Verification v, String status, List<String> reasons, String result) {
        Instant now = now();
        v.status = status;
        v.reasonCodes = reasons.toArray(String[]::new);
        v.reasonCode = reasons.isEmpty() ? null : reasons.get(0);
        if (result != null) {
            v.result = result;
        }
        v.updatedAt = now;
        if (!"retry_required".equals(status)) {
            v.completedAt = now;
        }
        if ("verified".equals(status)) {
            v.verifiedAt = now;
        }
        return eraseImages(v, now).chain(() -> Panache.getSession())
                .chain(s -> s.flush().chain(() -> outbox.statusChanged(s, v, now))).replaceWith(v);
    }

    private Uni<Void> eraseImages(Verification v, Instant now) {
        return Panache.getSession().chain(s -> s.createNativeQuery("DELETE FROM kyc.verification_images WHERE verification_id = :v")
                .setParameter("v", v.id).executeUpdate()).invoke(n -> {
                    if (n > 0) {
                        v.imagesErasedAt = now;
                    }
                }).replaceWithVoid();
    }

    public String write(Object node, Consumer<Object> unused) {
        try {
            return json.writeValueAsString(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
