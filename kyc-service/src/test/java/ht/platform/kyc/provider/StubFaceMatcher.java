package ht.platform.kyc.provider;

import io.quarkus.test.junit.QuarkusTestProfile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Set;

/**
 * A test-only face matcher, enabled only under {@link Profile}, for the privacy walk: any image not 640-642 px wide
 * (the document) has one face with a fixed descriptor; a selfie 640 px wide is the same person (distance 0.3), 642 px
 * a different one (distance 1.0), and a 641 px selfie makes the matcher crash (an engine failure must end in
 * technical_error). The real matcher is {@link FaceSidecar} (LiveFaceFlowTest).
 */
@Alternative
@ApplicationScoped
public class StubFaceMatcher implements FaceMatcher {

    public static final int SAME = 640;
    public static final int CRASH = 641;
    public static final int DIFFERENT = 642;

    @Override
    public List<Face> faces(BufferedImage image) {
        float offset = switch (image.getWidth()) {
            case SAME -> 0.3f;
            case DIFFERENT -> 1.0f;
            case CRASH -> throw new IllegalStateException("face matcher crashed (simulated)");
            default -> 0f;
        };
        float[] descriptor = new float[128];
        descriptor[0] = offset;
        int w = image.getWidth();
        int h = image.getHeight();
        float[] embedding = new float[256];
        embedding[0] = 1.4f * offset;
        return List.of(new Face(0.99, 0, 0, w, h, new Point(w * 0.35, h * 0.4), new Point(w * 0.65, h * 0.4), descriptor, embedding));
    }

    @Override
    public String model() {
        return "test stub";
    }

    /** Enables the stub: the service then has a face matcher and live verifications can end verified. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(StubFaceMatcher.class);
        }
    }
}
