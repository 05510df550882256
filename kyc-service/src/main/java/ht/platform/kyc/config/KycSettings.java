package ht.platform.kyc.config;

import ht.platform.support.jobs.Jobs;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed configuration of the kyc service (prefix {@code kyc}). */
@ConfigMapping(prefix = "kyc")
public interface KycSettings {

    Proof proof();

    Verification verification();

    Subject subject();

    RateLimit rateLimit();

    Decision decision();

    Images images();

    Mrz mrz();

    Face face();

    Webhooks webhooks();

    /** The scheduled passes: {@code kyc.jobs.<name>.every} (expiry). */
    Map<String, Jobs.Settings> jobs();

    interface Proof {
        /** Ed25519 private key, PKCS#8 DER in base64 (KYC_PROOF_SIGNING_KEY). */
        Optional<String> signingKey();

        /** Without a signing key, sign with a throwaway key of this process (development and tests only; default false). */
        @WithDefault("false")
        boolean allowEphemeralKey();

        /** Public keys (X.509 DER base64) of retired signing keys, still published until their proofs expired. */
        Optional<List<String>> retiredPublicKeys();

        /** Ed25519 private key of test-mode proofs (KYC_PROOF_TEST_SIGNING_KEY); default: derived one-way from the live key. */
        Optional<String> testSigningKey();

        /** Public keys of retired test signing keys, still in the test JWKS until their proofs expired. */
        Optional<List<String>> retiredTestPublicKeys();

        @WithDefault("PT10M")
        Duration validity();
    }

    interface Verification {
        @WithDefault("PT24H")
        Duration validity();

        @WithDefault("3")
        int maxAttempts();
    }

    interface Subject {
        @WithDefault("P365D")
        Duration verifiedValidity();

        @WithDefault("3")
        int restrictAfterRejections();
    }

    interface RateLimit {
        @WithDefault("20")
        double perSecond();

        @WithDefault("100")
        int burst();
    }

    interface Decision {
        @WithDefault("18")
        int minimumAge();

        @WithDefault("640")
        int minWidth();

        @WithDefault("400")
        int minHeight();

        @WithDefault("10485760")
        long maxImageBytes();

        /** The longest an automatic decision may take; overrunning it ends the attempt technical_error (images erased). */
        @WithDefault("PT60S")
        Duration timeBudget();

        /** A verification still processing this long after its last step lost its decision: technical_error. */
        @WithDefault("PT5M")
        Duration stuckAfter();
    }

    /** Uploaded photos: bounded before they are decoded, decoded on a bounded pool. */
    interface Images {
        /** The most pixels (width × height, as the header declares them) a photo may have; more is refused unread. */
        @WithDefault("40000000")
        long maxPixels();

        /** Photos are decoded to at most this many pixels along their longer side (subsampled while read). */
        @WithDefault("3000")
        int maxSide();

        /** Threads decoding images and running checks. */
        @WithDefault("2")
        int workers();

        /** Uploads waiting for a worker; one more is answered 503 with Retry-After. */
        @WithDefault("4")
        int queue();
    }

    /** Reading the machine-readable zone from the document image. */
    interface Mrz {
        /** The Tesseract command (Debian tesseract-ocr with its eng data). */
        @WithDefault("tesseract")
        String command();

        /** One OCR run longer than this is stopped (the decision then finds the MRZ unreadable). */
        @WithDefault("PT20S")
        Duration timeout();
    }

    /**
     * The face check: the face sidecar in the same pod (loopback only) and the distance thresholds between the
     * document portrait's and the selfie's descriptors, calibrated on kyc-service/eval (README, "Live checks").
     */
    interface Face {
        /** The sidecar, e.g. http://127.0.0.1:8091 (KYC_FACE_URL); unset, the face check is not performed. */
        Optional<java.net.URI> url();

        /** The sidecar's secret (KYC_FACE_TOKEN, its FACE_SIDECAR_TOKEN); unset, it is read from {@link #tokenFile()}. */
        Optional<String> token();

        /**
         * The file where the sidecar writes the secret it draws at each start (KYC_FACE_TOKEN_FILE, its
         * FACE_SIDECAR_TOKEN_FILE); unset: kyc-face-sidecar-&lt;port&gt;/token in the temporary directory, as the sidecar does.
         * It is read only when it and its directory belong to this process's user and are closed to everyone else.
         */
        Optional<java.nio.file.Path> tokenFile();

        /** One detection longer than this fails the decision (technical_error, images erased). */
        @WithDefault("PT20S")
        Duration timeout();

        /** Images are scaled to at most this many pixels along their longer side before detection. */
        @WithDefault("1024")
        int maxSide();

        /** A selfie face counts from this detection score (a printed portrait is looked for from the sidecar's 0.3). */
        @WithDefault("0.5")
        double selfieMinScore();

        /**
         * The face score (FaceScore: both descriptors' distances in impostor standard deviations, averaged) below which
         * the faces are the same person (kyc-service/eval FacePairEvaluation).
         */
        double matchBelow();

        /** The face score from which the faces are different people (face_mismatch); in between: face_match_inconclusive. */
        double mismatchFrom();

        /**
         * The selfie face's detail (FaceCheck.detail: the fine detail of the eye-aligned inner face) a match needs; a
         * smaller or softer face below the match bound is face_match_inconclusive, not verified. Calibrated on
         * kyc-service/eval FacePairEvaluation: below every genuine selfie of the London Set and all but one of the
         * cross-day set, above most faces cut small from group photos and enlarged (docs/kyc-live.md).
         */
        double selfieDetailFrom();

        /** The cohort faces nearest to each face that the face score normalises against (FaceScore). */
        @WithDefault("100")
        int cohortNearest();

        /** The ResNet-34 descriptor's weight in the face score; MobileFace's is the rest. */
        @WithDefault("0.6")
        double descriptorWeight();

        /** A selfie this close to the portrait (descriptor distance) is the document's own picture, not a new photo. */
        @WithDefault("0.1")
        double copyBelow();

        /** Or when the two face crops, aligned on the eyes (grey, 64 × 64), correlate this much pixel for pixel. */
        @WithDefault("0.88")
        double copyCorrelation();

        /** Or when both are near: descriptors closer than copy-near-below and crops correlating from copy-near-correlation. */
        @WithDefault("0.2")
        double copyNearBelow();

        @WithDefault("0.8")
        double copyNearCorrelation();
    }

    interface Webhooks {
        @WithDefault("1m,5m,30m,2h,6h,12h,24h,24h")
        String retrySchedule();

        @WithDefault("PT24H")
        Duration rotationOverlap();
    }
}
