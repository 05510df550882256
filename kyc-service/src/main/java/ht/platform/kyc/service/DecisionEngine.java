package ht.platform.kyc.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.provider.BuiltInChecks;
import ht.platform.kyc.provider.Check;
import ht.platform.kyc.provider.CheckResult;
import ht.platform.kyc.provider.CheckStatus;
import ht.platform.kyc.provider.Evidence;
import ht.platform.kyc.provider.FaceCheck;
import ht.platform.kyc.provider.FaceMatcher;
import ht.platform.kyc.provider.FaceCohort;
import ht.platform.kyc.provider.FaceScore;
import ht.platform.kyc.provider.FaceSidecar;
import ht.platform.kyc.provider.MrzReader;
import ht.platform.kyc.provider.ScreenCaptureCheck;
import ht.platform.kyc.provider.SelfieScreenCheck;
import ht.platform.support.time.Timestamps;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The automatic decision: a pipeline of independent checks, combined by fixed rules. Any non-retryable
 * failure rejects; a required check that cannot run here (so no new attempt could succeed) makes the
 * verification unable_to_verify; a retryable failure or an inconclusive check asks for a retry; only when
 * every required check passed is the person verified. A check that was not performed never yields verified.
 */
@ApplicationScoped
public class DecisionEngine {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(DecisionEngine.class);

    public static final Set<String> REASONS = Set.of("document_blurry", "document_glare", "document_too_dark", "document_cut_off",
            "document_side_missing", "document_not_detected", "document_screen_capture", "selfie_screen_capture", "mrz_unreadable", "mrz_checksum_failed",
            "document_expired", "document_type_not_supported", "document_country_not_supported", "under_minimum_age",
            "selfie_no_face", "selfie_multiple_faces", "face_match_inconclusive", "face_mismatch", "document_tampering_suspected",
            "duplicate_identity", "consent_declined", "session_expired", "cancelled_by_client", "processing_error");

    /** The decision: final status, reasons (main first) and the read shape's result object. */
    public record Outcome(String status, List<String> reasonCodes, ObjectNode result) { }

    @Inject
    KycSettings settings;

    @Inject
    Instance<FaceMatcher> faceMatcher;

    @Inject
    ObjectMapper json;

    private MrzReader mrzReader;
    /** Reads the MRZ while the deciding worker compares the faces: one read per worker at most, so never a wait. */
    private ExecutorService mrzReads;
    private Optional<String> mrzEngine = Optional.empty();
    private Optional<FaceMatcher> matcher = Optional.empty();
    private FaceScore faceScore;

    @PostConstruct
    void start() {
        mrzReader = new MrzReader(settings.mrz().command(), settings.mrz().timeout());
        AtomicInteger n = new AtomicInteger();
        mrzReads = Executors.newFixedThreadPool(settings.images().workers(), r -> {
            Thread t = new Thread(r, "kyc-mrz-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        mrzEngine = mrzReader.version();
        if (mrzEngine.isEmpty()) {
            LOG.warnf("'%s' does not run here: the MRZ is not read, live verifications end unable_to_verify", settings.mrz().command());
        }
        KycSettings.Face face = settings.face();
        faceScore = new FaceScore(FaceCohort.bundled(), face.cohortNearest(), face.descriptorWeight());
        if (faceMatcher.isResolvable()) {
            matcher = Optional.of(faceMatcher.get());
        } else if (face.url().isPresent()) {
            matcher = Optional.of(new FaceSidecar(face.url().get(), FaceSidecar.secret(face.token(), face.tokenFile(), face.url().get()),
                    face.timeout(), face.maxSide()));
        } else {
            LOG.warn("kyc.face.url is not set: faces are not compared, live verifications end unable_to_verify");
        }
    }

    @PreDestroy
    void stop() {
        mrzReads.shutdownNow();
    }

    public boolean faceMatcherConfigured() {
        return matcher.isPresent();
    }

    /** The face model when the matcher answers (the sidecar's health probe), for the capabilities. */
    public Optional<String> faceModel() {
        return matcher.filter(FaceMatcher::ready).map(FaceMatcher::model);
    }

    /** The OCR engine that reads the MRZ (e.g. "tesseract 5.3.0"), empty when none runs here. */
    public Optional<String> mrzEngine() {
        return mrzEngine;
    }

    public List<Check> pipeline() {
        KycSettings.Decision d = settings.decision();
        return List.of(new BuiltInChecks.DocumentImages(d.maxImageBytes(), d.minWidth(), d.minHeight()),
                new ScreenCaptureCheck(),
                new BuiltInChecks.MrzCheck(Map.of("HT", "HTI")),
                new BuiltInChecks.DocumentValidity(d.minimumAge()),
                new BuiltInChecks.SelfieImage(d.maxImageBytes(), d.minWidth(), d.minHeight()),
                new SelfieScreenCheck(),
                new FaceCheck(matcher, faceScore, faceBounds(settings.face())));
    }

    private static FaceCheck.Bounds faceBounds(KycSettings.Face f) {
        return new FaceCheck.Bounds(f.selfieMinScore(), f.matchBelow(), f.mismatchFrom(), f.copyBelow(), f.copyCorrelation(),
                f.copyNearBelow(), f.copyNearCorrelation(), f.selfieDetailFrom());
    }

    /** The checks that judge what the document photo shows; not run on a photo of a screen. */
    static final Set<String> READ_FROM_THE_DOCUMENT = Set.of("mrz", "document_validity", "face");

    public Outcome decide(Evidence submitted, Instant now) {
        // a photo of a screen is not judged further: its MRZ and portrait ask for a photo of the document, not a verdict
        CheckResult screen = new ScreenCaptureCheck().run(submitted);
        boolean offScreen = screen.status() == CheckStatus.failed;
        CheckResult selfieScreen = new SelfieScreenCheck().run(submitted);
        boolean selfieOffScreen = selfieScreen.status() == CheckStatus.failed;
        List<Check> pipeline = pipeline();
        Future<MrzReader.Reading> reading = mrzEngine.isEmpty() || submitted.mrzSide() == null || offScreen ? null
                : mrzReads.submit(() -> mrzReader.read(submitted.mrzSide(), submitted.today(), MrzReader.Format.of(submitted.documentType())));
        try {
            // the face comparison (the sidecar) and the MRZ read (Tesseract) are separate processes: both at once
            CheckResult face = offScreen || selfieOffScreen ? null
                    : pipeline.stream().filter(FaceCheck.class::isInstance).findFirst().orElseThrow().run(submitted);
            Evidence evidence = reading == null ? submitted : submitted.withMrz(result(reading));
            List<CheckResult> results = new ArrayList<>();
            for (Check check : pipeline) {
                if (check instanceof ScreenCaptureCheck) {
                    results.add(screen);
                } else if (check instanceof SelfieScreenCheck) {
                    results.add(selfieScreen);
                } else if (offScreen && READ_FROM_THE_DOCUMENT.contains(check.name())) {
                    results.add(CheckResult.awaiting(check.name(), "the document photo is a photo of a screen"));
                } else if (selfieOffScreen && check instanceof FaceCheck) {
                    results.add(CheckResult.awaiting(check.name(), "the selfie is a photo of a screen"));
                } else {
                    results.add(check instanceof FaceCheck ? face : check.run(evidence));
                }
            }
            return combine(evidence.documentType(), evidence.country(), results, now, false);
        } finally {
            if (reading != null) {
                reading.cancel(true);
            }
        }
    }

    private static MrzReader.Reading result(Future<MrzReader.Reading> reading) {
        try {
            return reading.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the MRZ was read", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    public Outcome combine(String documentType, String country, List<CheckResult> results, Instant now, boolean simulated) {
        LinkedHashSet<String> rejecting = new LinkedHashSet<>();
        LinkedHashSet<String> retrying = new LinkedHashSet<>();
        LinkedHashSet<String> unavailable = new LinkedHashSet<>();
        boolean notPerformed = false;
        boolean awaiting = false;
        for (CheckResult r : results) {
            switch (r.status()) {
                case failed -> (r.retryable() ? retrying : rejecting).addAll(r.reasonCodes());
                case inconclusive -> retrying.addAll(r.reasonCodes());
                case not_performed -> {
                    if (r.retryable()) {
                        awaiting = true; // held up by another check's failure on these images: a new attempt can run it
                    } else {
                        notPerformed = true;
                        unavailable.add(r.name().equals("face") ? "face_match_inconclusive" : "document_type_not_supported");
                    }
                }
                case passed -> { }
            }
        }
        String status;
        List<String> reasons = new ArrayList<>();
        if (!rejecting.isEmpty()) {
            status = "rejected";
            reasons.addAll(rejecting);
            reasons.addAll(retrying);
        } else if (notPerformed) {
            status = "unable_to_verify";
            reasons.addAll(unavailable);
            reasons.addAll(retrying);
        } else if (!retrying.isEmpty() || awaiting) {
            status = "retry_required";
            reasons.addAll(retrying);
        } else {
            status = "verified";
        }
        return new Outcome(status, reasons, result(documentType, country, results, now, simulated));
    }

    /** The read shape: {checks: {document, mrz, face}, decided_at}; statuses and non-personal facts only. */
    ObjectNode result(String documentType, String country, List<CheckResult> results, Instant now, boolean simulated) {
        ObjectNode result = json.createObjectNode();
        ObjectNode checks = result.putObject("checks");
        ObjectNode document = checks.putObject("document");
        document.put("status", worst(results, "document_image", "document_screen", "document_validity").name());
        document.put("document_type", documentType);
        Object issuing = detail(results, "mrz", "issuing_country");
        document.put("issuing_country", issuing == null ? country : issuing.toString());
        Object expiry = detail(results, "document_validity", "expiry_valid");
        if (expiry == null) {
            document.putNull("expiry_valid");
        } else {
            document.put("expiry_valid", (Boolean) expiry);
        }
        Object screen = detail(results, "document_screen", "screen_capture");
        if (screen != null) {
            document.set("screen_capture", json.valueToTree(screen));
        }
        checks.putObject("mrz").put("status", worst(results, "mrz").name());
        ObjectNode face = checks.putObject("face").put("status", worst(results, "selfie_image", "selfie_screen", "face").name());
        Object selfieScreen = detail(results, "selfie_screen", "screen_capture");
        if (selfieScreen != null) {
            face.set("screen_capture", json.valueToTree(selfieScreen));
        }
        Object liveness = detail(results, "face", "liveness");
        if (liveness != null) {
            face.set("liveness", json.valueToTree(liveness));
        }
        result.put("decided_at", Timestamps.seconds(now));
        if (simulated) {
            result.put("simulated", true);
        }
        return result;
    }

    private static CheckStatus worst(List<CheckResult> results, String... names) {
        CheckStatus worst = null;
        for (CheckResult r : results) {
            if (!Set.of(names).contains(r.name())) {
                continue;
            }
            if (worst == null || rank(r.status()) > rank(worst)) {
                worst = r.status();
            }
        }
        return worst == null ? CheckStatus.not_performed : worst;
    }

    private static int rank(CheckStatus s) {
        return switch (s) {
            case passed -> 0;
            case not_performed -> 1;
            case inconclusive -> 2;
            case failed -> 3;
        };
    }

    private static Object detail(List<CheckResult> results, String name, String key) {
        return results.stream().filter(r -> r.name().equals(name)).findFirst().map(r -> r.details().get(key)).orElse(null);
    }
}
