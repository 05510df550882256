package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The checks that run without any external service. */
public final class BuiltInChecks {

    public static final Set<String> TWO_SIDED = Set.of("national_id", "driver_license");

    private BuiltInChecks() { }

    /** Format, size, resolution, darkness, glare and blur of the document images; the back where the document has one. */
    public record DocumentImages(long maxBytes, int minWidth, int minHeight) implements Check {
        public String name() {
            return "document_image";
        }

        public CheckResult run(Evidence e) {
            CheckResult front = quality(name(), e.front(), maxBytes, minWidth, minHeight, false);
            if (front.status() != CheckStatus.passed) {
                return front;
            }
            if (TWO_SIDED.contains(e.documentType())) {
                if (e.back() == null || e.back().length == 0) {
                    return CheckResult.failed(name(), "document_side_missing", true);
                }
                return quality(name(), e.back(), maxBytes, minWidth, minHeight, false);
            }
            return front;
        }
    }

    /** Format, size, resolution, darkness and blur of the selfie (its faces are counted by the face check). */
    public record SelfieImage(long maxBytes, int minWidth, int minHeight) implements Check {
        public String name() {
            return "selfie_image";
        }

        public CheckResult run(Evidence e) {
            return quality(name(), e.selfie(), maxBytes, Math.min(minWidth, 480), Math.min(minHeight, 480), true);
        }
    }

    static CheckResult quality(String name, byte[] bytes, long maxBytes, int minWidth, int minHeight, boolean selfie) {
        String notDetected = selfie ? "selfie_no_face" : "document_not_detected";
        if (bytes == null || bytes.length == 0) {
            return CheckResult.failed(name, selfie ? "selfie_no_face" : "document_side_missing", true);
        }
        if (bytes.length > maxBytes) {
            return CheckResult.failed(name, notDetected, true);
        }
        String format = ImageQuality.format(bytes);
        BufferedImage image = format == null ? null : ImageQuality.decode(bytes);
        if (image == null) {
            return CheckResult.failed(name, notDetected, true);
        }
        ImageQuality.Measures m = ImageQuality.measure(format, image);
        if (!(m.width() >= minWidth && m.height() >= minHeight) && !(m.width() >= minHeight && m.height() >= minWidth)) {
            return CheckResult.failed(name, selfie ? "selfie_no_face" : "document_cut_off", true);
        }
        if (m.meanLuma() < ImageQuality.DARK_BELOW) {
            return CheckResult.failed(name, selfie ? "selfie_no_face" : "document_too_dark", true);
        }
        if (!selfie && m.glareShare() > ImageQuality.GLARE_ABOVE) {
            return CheckResult.failed(name, "document_glare", true);
        }
        if (m.sharpness() < (selfie ? ImageQuality.SELFIE_BLURRY_BELOW : ImageQuality.BLURRY_BELOW)) {
            return CheckResult.failed(name, selfie ? "selfie_no_face" : "document_blurry", true);
        }
        return CheckResult.passed(name);
    }

    /**
     * The ICAO 9303 MRZ as read from the document image: every check digit, the document type (TD3 passport,
     * TD1 card) and the issuing state against the verification's requested type and country.
     */
    public record MrzCheck(Map<String, String> countries) implements Check {
        public String name() {
            return "mrz";
        }

        public CheckResult run(Evidence e) {
            if (e.mrz() == null) {
                return CheckResult.notPerformed(name(), "no machine-readable zone reader runs here");
            }
            return switch (e.mrz().status()) {
                case unreadable -> CheckResult.failed(name(), "mrz_unreadable", true);
                case checksum_failed -> CheckResult.failed(name(), "mrz_checksum_failed", true);
                case read -> {
                    Mrz.Data data = e.mrz().data();
                    if (!matchesType(e.documentType(), data)) {
                        yield CheckResult.failed(name(), "document_type_not_supported", true);
                    }
                    if (!data.issuingState().equals(countries.get(e.country()))) {
                        yield CheckResult.failed(name(), "document_country_not_supported", false);
                    }
                    Map<String, Object> details = new LinkedHashMap<>();
                    details.put("issuing_country", e.country());
                    details.put("format", data.format());
                    yield CheckResult.passed(name(), details);
                }
            };
        }

        static boolean matchesType(String documentType, Mrz.Data data) {
            return switch (documentType) {
                case "passport" -> "TD3".equals(data.format()) && data.documentCode().startsWith("P");
                case "national_id" -> "TD1".equals(data.format()) && "IAC".indexOf(data.documentCode().charAt(0)) >= 0;
                case "driver_license" -> "TD1".equals(data.format()) && data.documentCode().startsWith("D");
                default -> false;
            };
        }
    }

    /** Document expiry (against the injected clock) and minimum age, from the MRZ as read. */
    public record DocumentValidity(int minimumAge) implements Check {
        public String name() {
            return "document_validity";
        }

        public CheckResult run(Evidence e) {
            if (e.mrz() == null) {
                return CheckResult.notPerformed(name(), "no machine-readable zone reader runs here");
            }
            if (e.mrz().data() == null) {
                return CheckResult.awaiting(name(), "the machine-readable zone was not read");
            }
            Mrz.Data data = e.mrz().data();
            List<String> reasons = new ArrayList<>();
            boolean expiryValid = !data.expiryDate().isBefore(e.today());
            if (!expiryValid) {
                reasons.add("document_expired");
            }
            if (Period.between(data.birthDate(), e.today()).getYears() < minimumAge) {
                reasons.add("under_minimum_age");
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("expiry_valid", expiryValid);
            if (reasons.isEmpty()) {
                return CheckResult.passed(name(), details);
            }
            return new CheckResult(name(), CheckStatus.failed, reasons, false, details);
        }
    }

    /** For the capabilities: which checks run for each document type in this configuration. */
    public static Map<String, Object> describe(boolean mrzReader, boolean faceMatcher) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String type : List.of("national_id", "driver_license", "passport")) {
            Map<String, Object> checks = new LinkedHashMap<>();
            checks.put("image_format_size_resolution", "performed");
            checks.put("blur_darkness_glare", "performed");
            checks.put("document_back_side", TWO_SIDED.contains(type) ? "required" : "not_applicable");
            checks.put("mrz_format", "passport".equals(type) ? "TD3" : "TD1");
            String read = mrzReader ? "performed" : "not_available";
            checks.put("mrz_read_from_image", read);
            checks.put("mrz_icao_9303_check_digits", read);
            checks.put("document_type_and_country", read);
            checks.put("document_expiry", read);
            checks.put("minimum_age", read);
            checks.put("selfie_single_face", faceMatcher ? "performed" : "not_configured");
            checks.put("face_match", faceMatcher ? "performed" : "not_configured");
            checks.put("liveness_selfie_not_document_portrait", faceMatcher ? "performed" : "not_configured");
            checks.put("document_screen_capture", "performed");
            checks.put("selfie_screen_capture", "performed");
            checks.put("liveness_active_challenge", "not_performed");
            checks.put("image_metadata_stripped", "performed");
            checks.put("can_be_verified", faceMatcher && mrzReader);
            out.put(type, checks);
        }
        return out;
    }
}
