package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** Format, size, resolution, darkness and blur of the selfie (no face detection is built in). */
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
        if (m.sharpness() < ImageQuality.BLURRY_BELOW) {
            return CheckResult.failed(name, selfie ? "selfie_no_face" : "document_blurry", true);
        }
        return CheckResult.passed(name);
    }

    /** ICAO 9303 MRZ with every check digit (passports); no machine-readable data exists for the other types here. */
    public record MrzCheck(Set<String> acceptedStates) implements Check {
        public String name() {
            return "mrz";
        }

        public CheckResult run(Evidence e) {
            if (!"passport".equals(e.documentType())) {
                return CheckResult.notPerformed(name(), "no machine-readable zone reader for " + e.documentType());
            }
            if (e.mrzText() == null || e.mrzText().isBlank()) {
                return CheckResult.notPerformed(name(), "no machine-readable zone was read");
            }
            try {
                Mrz.Td3 td3 = Mrz.parseTd3(e.mrzText(), e.today());
                if (!acceptedStates.contains(td3.issuingState())) {
                    return CheckResult.failed(name(), "document_country_not_supported", false);
                }
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("issuing_country", td3.issuingState());
                return CheckResult.passed(name(), details);
            } catch (Mrz.MrzException ex) {
                return CheckResult.failed(name(), ex.checksum() ? "mrz_checksum_failed" : "mrz_unreadable", true);
            }
        }
    }

    /** Document expiry and minimum age from the machine-readable data. */
    public record DocumentValidity(int minimumAge) implements Check {
        public String name() {
            return "document_validity";
        }

        public CheckResult run(Evidence e) {
            Optional<Mrz.Td3> td3 = e.mrzText() == null || !"passport".equals(e.documentType()) ? Optional.empty()
                    : Mrz.tryParse(e.mrzText(), e.today());
            if (td3.isEmpty()) {
                return CheckResult.notPerformed(name(), "no valid machine-readable data");
            }
            List<String> reasons = new ArrayList<>();
            boolean expiryValid = !td3.get().expiryDate().isBefore(e.today());
            if (!expiryValid) {
                reasons.add("document_expired");
            }
            if (Period.between(td3.get().birthDate(), e.today()).getYears() < minimumAge) {
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

    /** Face comparison through the configured matcher; not performed when none is configured. */
    public record FaceMatch(Optional<FaceMatcher> matcher) implements Check {
        public String name() {
            return "face";
        }

        public CheckResult run(Evidence e) {
            if (matcher.isEmpty()) {
                return CheckResult.notPerformed(name(), "no face matcher is configured");
            }
            return switch (matcher.get().compare(e.front(), e.selfie())) {
                case same_person -> CheckResult.passed(name());
                case different_person -> CheckResult.failed(name(), "face_mismatch", false);
                case inconclusive -> CheckResult.inconclusive(name(), "face_match_inconclusive");
            };
        }
    }

    /** For the capabilities: which checks run for each document type in this configuration. */
    public static Map<String, Object> describe(boolean faceMatcher) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String type : List.of("national_id", "driver_license", "passport")) {
            Map<String, Object> checks = new LinkedHashMap<>();
            checks.put("image_format_size_resolution", "performed");
            checks.put("blur_darkness_glare", "performed");
            checks.put("document_back_side", TWO_SIDED.contains(type) ? "required" : "not_applicable");
            checks.put("mrz_icao_9303_check_digits", "passport".equals(type) ? "performed" : "not_available");
            checks.put("document_expiry", "passport".equals(type) ? "performed" : "not_available");
            checks.put("minimum_age", "passport".equals(type) ? "performed" : "not_available");
            checks.put("face_match", faceMatcher ? "performed" : "not_configured");
            checks.put("can_be_verified", faceMatcher && "passport".equals(type));
            out.put(type, checks);
        }
        return out;
    }
}
