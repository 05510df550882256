package ht.platform.kyc.it;

import ht.platform.kyc.admin.FoundationTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The foundation checks (probes, OpenAPI, request ids, error bodies, operator API, keys) against the packaged
 * artifact: the fast-jar in target/quarkus-app, or the native executable when built with -Dnative, started by
 * Quarkus in the "test" profile.
 */
@QuarkusIntegrationTest
class HealthIT extends FoundationTest {
}
