package ht.platform.wallet.admin;

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
        super(ServiceTerms.WALLET);
    }

    @Test
    void nullEventTypesAndOddPageTokensAreClientErrors() {
        given().header("Authorization", "Bearer " + newTestKey()).contentType(ContentType.JSON)
                .body("{\"url\":\"https://shop.example/hooks\",\"events\":[null]}").post("/api/v1/webhooks")
                .then().statusCode(400).body("error.code", equalTo("INVALID_REQUEST")).body("error.param", equalTo("events[0]"));
        for (String page : List.of("/wallet/wpt_%20x", "/wallet/AA%20AA", "/wallet/wpt_x%22%3E")) {
            given().urlEncodingEnabled(false).get(page).then().statusCode(404).body("error.code", equalTo("NOT_FOUND"));
        }
        given().urlEncodingEnabled(false).contentType(ContentType.URLENC).body("x=1")
                .post("/wallet/wpt_%20x/approve").then().statusCode(404);
    }

    @Override
    protected List<String> pathsWithSecrets() {
        return List.of("/wallet/wpt_SECRETxyz", "/wallet/wpt_SECRETxyz/approve");
    }
}
