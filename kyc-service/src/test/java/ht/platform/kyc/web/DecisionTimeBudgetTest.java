package ht.platform.kyc.web;

import ht.platform.kyc.Erasure;
import ht.platform.kyc.Fixtures;
import ht.platform.kyc.Images;
import ht.platform.support.testing.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static ht.platform.kyc.Fixtures.as;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/** A decision that overruns its time budget ends technical_error, the person sees a result, and the images are erased. */
@QuarkusTest
@TestProfile(DecisionTimeBudgetTest.TinyBudget.class)
class DecisionTimeBudgetTest {

    /** A budget no real decision (image checks, OCR) can meet. */
    public static class TinyBudget implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("kyc.decision.time-budget", "PT0.02S");
        }
    }

    @Test
    void overrunningTheBudgetIsATechnicalErrorWithErasure() throws Exception {
        try (Receiver receiver = new Receiver()) {
            Fixtures.App app = Fixtures.app(receiver.url());
            byte[] passport = Images.passport(Images.mrz("HTI", "HX4271839", "900101", "310101", false));
            String id = Fixtures.live(app.liveKey(), "budget-" + System.nanoTime(), passport, Images.sharp(640, 640, 7));
            as(app.liveKey()).get("/api/v1/verifications/" + id).then().statusCode(200).body("status", equalTo("technical_error"))
                    .body("reason_code", equalTo("processing_error")).body("completed_at", notNullValue());
            receiver.await(h -> h.text().contains("\"verification.technical_error\"") && h.text().contains(id));
            Erasure.assertErased(id);
        }
    }
}
