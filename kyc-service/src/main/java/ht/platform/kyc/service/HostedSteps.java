package ht.platform.kyc.service;

import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.kyc.provider.BuiltInChecks;
import ht.platform.support.auth.ApiKeys;
import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The hosted page's steps, reached by the page token: open, consent, choose a document, then (live) the document
 * photos and the selfie, or (test) the chosen outcome. Each step is checked against the verification's status and
 * validity under the row's lock.
 */
@ApplicationScoped
public class HostedSteps {

    @Inject
    VerificationStore verifications;

    @Inject
    Transitions transitions;

    @Inject
    ImageVault images;

    @Inject
    ImageWorkers workers;

    @Inject
    DecisionRun decisions;

    @Inject
    TestOutcomes testOutcomes;

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
                if (!v.expiresAt.isAfter(transitions.now())) {
                    return transitions.finish(v, "expired", List.of("session_expired"), null);
                }
                return transitions.move(v, "started", transitions.now());
            }
            return Uni.createFrom().item(v);
        }));
    }

    public Uni<Verification> consent(String token, boolean accepted) {
        return step(token, Set.of("started"), v -> {
            if (accepted) {
                v.consentedAt = transitions.now();
                if (v.documentTypes.length == 1) {
                    v.documentType = v.documentTypes[0];
                }
                return Uni.createFrom().item(v);
            }
            return transitions.finish(v, "cancelled", List.of("consent_declined"), null);
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
    public Uni<Verification> submitDocument(String token, Path front, Path back) {
        return pageStep(token, Set.of("started")).invoke(this::documentAllowed).chain(v -> {
            byte[] rawFront = images.bounded(front, "front");
            byte[] rawBack = back == null || !BuiltInChecks.TWO_SIDED.contains(v.documentType) ? null : images.bounded(back, "back");
            if (BuiltInChecks.TWO_SIDED.contains(v.documentType) && rawBack == null) {
                throw ApiException.invalid("back", "This document needs a photo of its back");
            }
            return workers.run(() -> new byte[][] {images.clean(rawFront, "front"), rawBack == null ? null : images.clean(rawBack, "back")});
        }).chain(clean -> step(token, Set.of("started"), v -> {
            documentAllowed(v);
            Instant now = transitions.now();
            Uni<Void> stored = images.store(v, "document_front", clean[0], now);
            if (clean[1] != null) {
                stored = stored.chain(() -> images.store(v, "document_back", clean[1], now));
            }
            return stored.chain(() -> transitions.move(v, "document_submitted", now));
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
    public Uni<Verification> submitSelfie(String token, Path selfie) {
        return pageStep(token, Set.of("document_submitted")).chain(v -> {
            byte[] raw = images.bounded(selfie, "selfie");
            return workers.run(() -> images.clean(raw, "selfie"));
        }).chain(clean -> step(token, Set.of("document_submitted"), v -> {
            Instant now = transitions.now();
            return images.store(v, "selfie", clean, now).chain(() -> transitions.move(v, "processing", now));
        })).chain(v -> "processing".equals(v.status) ? decisions.decide(v.id) : Uni.createFrom().item(v));
    }

    /** Test mode on the page: the person picks the outcome. */
    public Uni<Verification> testOutcome(String token, String outcome, String reason) {
        List<String> reasons = testOutcomes.reasons(outcome,
                reason == null || reason.isBlank() || outcome.equals("verified") ? null : List.of(reason));
        return step(token, Set.of("started"), v -> {
            if (v.consentedAt == null || v.documentType == null) {
                throw new ApiException(409, "STEP_NOT_ALLOWED", "Consent and a document type come first");
            }
            return testOutcomes.simulate(v, outcome, reasons);
        });
    }

    private Uni<Verification> byToken(String token, boolean lock) {
        if (token == null || token.length() != 43) {
            return Uni.createFrom().nullItem();
        }
        return verifications.byPageToken(ApiKeys.hash(token), lock);
    }

    private Uni<Verification> step(String token, Set<String> allowed, Function<Verification, Uni<Verification>> work) {
        return Panache.withTransaction(() -> byToken(token, true).chain(v -> {
            if (v == null) {
                throw new ApiException(404, "NOT_FOUND", "This verification link is not valid");
            }
            if (!allowed.contains(v.status)) {
                throw new ApiException(409, "STEP_NOT_ALLOWED", "This step is not available any more");
            }
            if (!v.expiresAt.isAfter(transitions.now())) {
                return transitions.finish(v, "expired", List.of("session_expired"), null);
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
}
