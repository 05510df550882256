package ht.platform.kyc.provider;

import io.quarkus.test.junit.QuarkusTestProfile;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Set;

/**
 * A test-only face matcher, enabled only under {@link Profile}: a selfie 640 px wide is the same person, 642 px a
 * different one, and a 641 px selfie makes the matcher crash (an engine failure must end in technical_error).
 */
@Alternative
@ApplicationScoped
public class StubFaceMatcher implements FaceMatcher {

    public static final int SAME = 640;
    public static final int CRASH = 641;
    public static final int DIFFERENT = 642;

    @Override
    public Match compare(byte[] documentImage, byte[] selfieImage) {
        try {
            BufferedImage selfie = ImageIO.read(new ByteArrayInputStream(selfieImage));
            return switch (selfie.getWidth()) {
                case SAME -> Match.same_person;
                case DIFFERENT -> Match.different_person;
                case CRASH -> throw new IllegalStateException("face matcher crashed (simulated)");
                default -> Match.inconclusive;
            };
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Enables the stub: the service then has a face matcher and live verifications can end verified. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(StubFaceMatcher.class);
        }
    }
}
