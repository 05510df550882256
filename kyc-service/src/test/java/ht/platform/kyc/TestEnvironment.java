package ht.platform.kyc;

import ht.platform.support.testing.PlatformTestEnvironment;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;

/**
 * Every @QuarkusTest and @QuarkusIntegrationTest of this module runs against the database PlatformTestEnvironment
 * chooses, with Tesseract on the machine for the live MRZ read (found, installed from Debian, or reported missing).
 */
@WithTestResource(value = PlatformTestEnvironment.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = TesseractResource.class, scope = TestResourceScope.GLOBAL)
public final class TestEnvironment {

    private TestEnvironment() { }
}
