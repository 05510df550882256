package ht.platform.kyc.events;

import ht.platform.support.testing.SessionSettingsContract;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class SessionSettingsTest extends SessionSettingsContract {
}
