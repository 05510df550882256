package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The selfie photographed off a screen ({@link ScreenCapture}'s heuristics, as on the document): someone else's photo
 * shown on a display is no live selfie. {@code selfie_screen_capture}, retryable, since a heuristic asks for a new selfie
 * rather than refusing the person.
 */
public record SelfieScreenCheck() implements Check {

    public String name() {
        return "selfie_screen";
    }

    public CheckResult run(Evidence e) {
        BufferedImage image = e.selfie() == null ? null : ImageQuality.decode(e.selfie());
        ScreenCapture.Finding finding = image == null ? null : ScreenCapture.examine(image);
        if (finding == null || finding.tiles() == 0) {
            return CheckResult.awaiting(name(), "the selfie was not usable");
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("screen_capture", Map.of("status", finding.screen() ? CheckStatus.failed.name() : CheckStatus.passed.name(),
                "heuristics", ScreenCapture.HEURISTICS));
        return finding.screen() ? new CheckResult(name(), CheckStatus.failed, List.of("selfie_screen_capture"), true, details)
                : CheckResult.passed(name(), details);
    }
}
