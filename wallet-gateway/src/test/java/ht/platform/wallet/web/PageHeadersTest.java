package ht.platform.wallet.web;

import ht.platform.support.testing.PageHeadersContract;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;

/** Every page of the gateway (the wallet page, its error pages, the dashboard) carries the one page header policy. */
@QuarkusTest
class PageHeadersTest {

    @Test
    void everyPageRouteAnswersWithThePageHeaders() {
        PageHeadersContract.assertEveryPage(List.of());
    }
}
