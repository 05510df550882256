package ht.platform.support.dashboard;

import ht.platform.support.testing.MessageBundleContract;
import org.junit.jupiter.api.Test;

class DashTextsTest {

    @Test
    void everyLanguageHasEverySharedDashboardText() throws Exception {
        MessageBundleContract.assertComplete(DashTexts.class);
    }
}
