package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The document photographed off a screen ({@link ScreenCapture}'s heuristics on the front, and on the back where the
 * document has one): {@code document_screen_capture}, retryable, since a heuristic asks for a photo of the document
 * itself rather than refusing the person.
 */
public record ScreenCaptureCheck() implements Check {

    public String name() {
        return "document_screen";
    }

    public CheckResult run(Evidence e) {
        List<byte[]> sides = new ArrayList<>();
        sides.add(e.front());
        if (BuiltInChecks.TWO_SIDED.contains(e.documentType())) {
            sides.add(e.back());
        }
        boolean screen = false;
        for (byte[] side : sides) {
            BufferedImage image = side == null ? null : ImageQuality.decode(side);
            ScreenCapture.Finding finding = image == null ? null : ScreenCapture.examine(image);
            if (finding == null || finding.tiles() == 0) {
                return CheckResult.awaiting(name(), "the document image was not usable");
            }
            screen |= finding.screen();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("screen_capture", Map.of("status", screen ? CheckStatus.failed.name() : CheckStatus.passed.name(),
                "heuristics", ScreenCapture.HEURISTICS));
        return screen ? new CheckResult(name(), CheckStatus.failed, List.of("document_screen_capture"), true, details)
                : CheckResult.passed(name(), details);
    }
}
