package ht.platform.wallet.web;

import ht.platform.support.testing.MessageBundleContract;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void everyLanguageHasEveryText() throws Exception {
        MessageBundleContract.assertComplete(Messages.class);
    }

    @Test
    void everyLanguageHasEveryDashboardText() throws Exception {
        MessageBundleContract.assertComplete(ht.platform.wallet.web.dashboard.DashboardTexts.class);
    }
}
