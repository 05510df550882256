package ht.platform.checkout.web;

import ht.platform.checkout.web.dashboard.DashboardTexts;
import ht.platform.support.testing.MessageBundleContract;
import org.junit.jupiter.api.Test;

class MessagesTest {

    @Test
    void everyLanguageHasEveryTextOfThePagesAndTheDashboard() throws Exception {
        MessageBundleContract.assertComplete(Messages.class, DashboardTexts.class);
    }
}
