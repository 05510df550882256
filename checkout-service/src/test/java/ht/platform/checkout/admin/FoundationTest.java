package ht.platform.checkout.admin;

import ht.platform.support.testing.FoundationContract;
import ht.platform.support.testing.ServiceTerms;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
public class FoundationTest extends FoundationContract {

    public FoundationTest() {
        super(ServiceTerms.CHECKOUT);
    }

    @Test
    void nullEventTypesAndOddPageTokensAreClientErrors() {
        given().header("Authorization", "Bearer " + newTestKey()).contentType(ContentType.JSON)
                .body("{\"url\":\"https://shop.example/hooks\",\"events\":[null]}").post("/api/v1/webhook_endpoints")
                .then().statusCode(400).body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo("events[0]"));
        for (String page : List.of("/pay/pay_cs_%20x", "/pay/AA%20AA", "/pay/l/plink_%20x", "/pay/pay_cs_x%22%3E")) {
            given().urlEncodingEnabled(false).get(page).then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));
        }
        given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body("payment_method=test_card")
                .post("/pay/pay_cs_%20x/pay").then().statusCode(404);
        given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body("decision=approve")
                .post("/pay/pay_cs_%20x/action").then().statusCode(404);
    }

    @Override
    protected List<String> pathsWithSecrets() {
        return List.of("/pay/pay_cs_SECRETxyz", "/pay/l/plink_SECRETxyz");
    }
}
