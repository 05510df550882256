package ht.platform.kyc.web;

import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import ht.platform.kyc.provider.ImageQuality;
import ht.platform.kyc.service.ImageWorkers;
import ht.platform.support.errors.ApiException;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.RedirectConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static ht.platform.kyc.Fixtures.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14 item 2: a PNG declaring 30000×30000 pixels (2.7 GB decoded, a few hundred bytes on the wire) is refused
 * from its header, never decoded: four concurrent uploads each get a 413 with the page's error, the heap stays
 * small, the service keeps answering; the page token is checked before any image; a full worker pool answers 503.
 */
@QuarkusTest
class ImageBombTest {

    static final RestAssuredConfig NO_REDIRECTS = RestAssured.config().redirect(RedirectConfig.redirectConfig().followRedirects(false));
    static final long HEAP_BOUND = 256L << 20;

    @Inject
    ImageWorkers workers;

    @Test
    void theHeaderIsReadWithoutDecoding() {
        byte[] bomb = Images.pngBomb(30000, 30000);
        assertTrue(bomb.length < 4096, "a small file: " + bomb.length);
        ImageQuality.Size size = ImageQuality.declaredSize(bomb);
        assertEquals(30000, size.width());
        assertEquals(900_000_000L, size.pixels());
        assertEquals(new ImageQuality.Size(700, 500), ImageQuality.declaredSize(Images.sharp(700, 500, 1)));
    }

    @Test
    void fourConcurrentBombsAreRefusedAndTheHeapStaysSmall() throws Exception {
        byte[] bomb = Images.pngBomb(30000, 30000);
        Fixtures.App app = Fixtures.app(null);
        List<String> pages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pages.add(consented(app, "bomb-" + i));
        }
        var memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong(before);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Response>> uploads = new ArrayList<>();
            for (String page : pages) {
                uploads.add(pool.submit(() -> {
                    go.await();
                    return given().config(NO_REDIRECTS).multiPart("front", "front.png", bomb, "image/png").post(page + "/document?lang=en");
                }));
            }
            go.countDown();
            // the service keeps answering while the bombs arrive
            given().get("/api/v1/capabilities").then().statusCode(200);
            for (Future<Response> upload : uploads) {
                Response r = upload.get(60, TimeUnit.SECONDS);
                assertEquals(413, r.statusCode(), r.asString());
                assertTrue(r.asString().contains("id=\"error\""), "the page with its error");
                assertTrue(r.asString().contains("id=\"front\""), "the upload form again");
            }
            given().get("/api/v1/capabilities").then().statusCode(200);
        } finally {
            sampling.set(false);
            sampler.join();
            pool.shutdownNow();
        }
        assertTrue(peak.get() - before < HEAP_BOUND, "heap grew by " + ((peak.get() - before) >> 20) + " MiB");
        // nothing was stored, the person can still upload a real photo
        for (String page : pages) {
            given().get(page).then().statusCode(200).body(containsString("id=\"front\""));
        }
    }

    @Test
    void theTokenIsCheckedBeforeTheImage() {
        byte[] bomb = Images.pngBomb(30000, 30000);
        given().config(NO_REDIRECTS).multiPart("front", "front.png", bomb, "image/png").post("/v/" + "x".repeat(43) + "/document")
                .then().statusCode(404).body(containsString("id=\"invalid\""));
        // a valid token at the wrong step: refused for the step, not for the image
        Fixtures.App app = Fixtures.app(null);
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"bomb-step\",\"document_types\":[\"passport\"]}");
        String path = java.net.URI.create(created.path("verification_url")).getPath();
        given().config(NO_REDIRECTS).multiPart("selfie", "s.png", bomb, "image/png").post(path + "/selfie").then().statusCode(409);
        as(app.liveKey()).get("/api/v1/verifications/" + created.path("id")).then().body("status", equalTo("created"));
    }

    @Test
    void aFullPoolAnswersBusyInsteadOfQueueing() {
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Throwable> refused = new java.util.concurrent.atomic.AtomicReference<>();
        int accepted = 0;
        try {
            // 2 workers and a queue of 4 (the defaults): the seventh task at the latest is refused, at once
            while (refused.get() == null && accepted < 20) {
                workers.run(() -> {
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return 1;
                }).subscribe().with(x -> { }, refused::set);
                if (refused.get() == null) {
                    accepted++;
                }
            }
        } finally {
            release.countDown();
        }
        assertTrue(accepted <= 6, "accepted " + accepted);
        assertInstanceOf(ApiException.class, refused.get());
        assertEquals(503, ((ApiException) refused.get()).status());
        assertEquals("5", ((ApiException) refused.get()).headers().get("Retry-After"));
    }

    private static String consented(Fixtures.App app, String user) {
        var created = Fixtures.createFull(app.liveKey(), "{\"external_user_id\":\"" + user + "\",\"document_types\":[\"passport\"]}");
        String path = java.net.URI.create(created.path("verification_url")).getPath();
        given().get(path).then().statusCode(200);
        given().config(NO_REDIRECTS).formParam("decision", "accept").post(path + "/consent").then().statusCode(303);
        return path;
    }
}
