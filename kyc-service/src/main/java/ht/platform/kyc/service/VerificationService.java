package ht.platform.kyc.service;

import ht.platform.support.http.PublicUrls;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.events.EventOutbox;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.kyc.model.VerificationView;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.idempotency.OneStatementCreate;
import ht.platform.support.idempotency.OneStatementCreate.Creation;
import ht.platform.support.idempotency.StoredResponse;
import ht.platform.support.ids.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;

/** The client API's verifications: create, read, list, cancel and retry. */
@ApplicationScoped
@RegisterForReflection(ignoreNested = false)
public class VerificationService {

    public static final String PREFIX = "kyc_ver_";
    public static final List<String> DOCUMENT_TYPES = List.of("national_id", "driver_license", "passport");
    public static final List<String> LOCALES = List.of("fr", "en", "ht");

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
    PublicUrls urls;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    KycSettings settings;

    @Inject
    RateLimiter rateLimiter;

    @Inject
    VerificationStore verifications;

    @Inject
    OneStatementCreate creates;

    @Inject
    EventOutbox outbox;

    @Inject
    Transitions transitions;

    @Inject
    ImageVault images;

    /**
     * POST /api/v1/verifications: idempotent by the required key. The key, the verification and its
     * verification.created event are one statement ({@link OneStatementCreate}), which also checks the return URL
     * against the application's declared ones.
     */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, CreateRequest body) {
        rateLimiter.acquire(caller.ownerId());
        return creates.create(caller, idempotencyKey, true, () -> {
            CreateRequest req = validate(body);
            Instant now = transitions.now();
            Verification v = new Verification();
            v.id = Ids.ulid(PREFIX, clock);
            v.applicationId = caller.ownerId();
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
            StoredResponse answer = StoredResponse.fresh(200, text(VerificationView.created(json, v, pageUrl(token))));
            return Creation.of(req, answer, VerificationStore.NEW, VerificationStore.newValues(v),
                            from -> outbox.createdInOneStatement(v, from))
                    .refusedWith(() -> ApiException.invalid("return_url",
                            "return_url must equal exactly one of the application's declared return URLs"));
        });
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
        return verifications.read(id, caller.ownerId(), caller.mode(), () -> notFound(id));
    }

    /** The caller's verifications, newest first, optionally of one status, after the cursor (a verification id). */
    public Uni<List<Verification>> latest(ApiPrincipal caller, String status, String startingAfter, int limit) {
        if (status != null && !Verification.IN_PROGRESS.contains(status) && !Verification.FINAL.contains(status)) {
            throw ApiException.invalid("status", "Unknown verification status '" + status + "'");
        }
        return verifications.latest(caller.ownerId(), caller.mode(), status, startingAfter, limit);
    }

    public Uni<Verification> cancel(ApiPrincipal caller, String id) {
        return Panache.withTransaction(() -> owned(caller, id).chain(v -> {
            if (!Verification.CANCELLABLE.contains(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_CANCELLABLE", "A verification in status '" + v.status + "' cannot be cancelled");
            }
            return transitions.finish(v, "cancelled", List.of("cancelled_by_client"), null);
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
            Instant now = transitions.now();
            String token = ApiKeys.generate("");
            v.pageTokenHash = ApiKeys.hash(token);
            v.attempts += 1;
            Transitions.checkMove(v, "created");
            v.status = "created";
            v.consentedAt = null;
            v.documentType = null;
            v.result = null;
            v.reasonCode = null;
            v.reasonCodes = new String[0];
            v.completedAt = null;
            v.updatedAt = now;
            v.expiresAt = now.plus(settings.verification().validity());
            return images.erase(v, now).replaceWith(new Created(v, pageUrl(token)));
        }));
    }

    /** The caller's verification, locked for a change in the current transaction. */
    public Uni<Verification> owned(ApiPrincipal caller, String id) {
        if (!Ids.isUlid(id, PREFIX)) {
            return Uni.createFrom().failure(notFound(id));
        }
        return verifications.lock(id).map(v -> {
            if (v == null || !v.applicationId.equals(caller.ownerId()) || !v.mode.equals(caller.mode())) {
                throw notFound(id);
            }
            return v;
        });
    }

    private static ApiException notFound(String id) {
        return new ApiException(404, "VERIFICATION_NOT_FOUND", "No verification " + id);
    }

    private String pageUrl(String token) {
        return urls.of("/v/" + token);
    }

    private String text(Object node) {
        try {
            return json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
