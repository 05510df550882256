package ht.platform.wallet.web;

import ht.platform.wallet.web.dashboard.DashboardTexts;
import ht.platform.support.testing.MessageBundleContract;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void everyLanguageHasEveryTextOfThePagesAndTheDashboard() throws Exception {
        MessageBundleContract.assertComplete(Messages.class, DashboardTexts.class);
    }
}
