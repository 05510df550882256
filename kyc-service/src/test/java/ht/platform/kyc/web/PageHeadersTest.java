package ht.platform.kyc.web;

import ht.platform.kyc.Fixtures;
import ht.platform.support.testing.PageHeadersContract;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

/** Every page of kyc (the hosted page, its error pages, the dashboard) carries the one page header policy. */
@QuarkusTest
class PageHeadersTest {

    @Test
    void everyPageRouteAnswersWithThePageHeaders() {
        Fixtures.App app = Fixtures.app(null, null);
        String url = Fixtures.createFull(app.testKey(), "{\"external_user_id\":\"headers-" + System.nanoTime() + "\"}")
                .path("verification_url");
        PageHeadersContract.assertEveryPage(List.of("GET " + URI.create(url).getPath()));
    }
}
