package ht.platform.support.testing;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every metric an alert rule or the service's Grafana dashboard reads is in its /q/metrics (a {@code @QuarkusTest} subclass). */
public abstract class ObservedMetricsContract {

    private final String job;

    protected ObservedMetricsContract(ServiceTerms terms) {
        this.job = terms.module();
    }

    @Test
    void everyMetricTheAlertsAndTheDashboardReadIsExposed() {
        given().get("/api/v1/events").then().statusCode(401); // a request, so the request metrics have a series
        String scrape = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Set<String> read = ObservedMetrics.referenced(job);
        assertTrue(read.containsAll(Set.of("webhooks_addresses", "platform_readiness_up", "sql_pool_ratio",
                "http_server_requests_seconds_count")), "the names come from the rules and the dashboard: " + read);
        assertEquals(Set.of(), ObservedMetrics.missing(job, scrape), "read by the rules or the dashboard, not exposed");
    }
}
