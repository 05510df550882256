package ht.platform.kyc;

import ht.platform.support.testing.PlatformTestEnvironment;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;

/**
 * Every @QuarkusTest and @QuarkusIntegrationTest of this module runs against the database PlatformTestEnvironment
 * chooses.
 */
@WithTestResource(value = PlatformTestEnvironment.class, scope = TestResourceScope.GLOBAL)
public final class TestEnvironment {

    private TestEnvironment() { }
}
