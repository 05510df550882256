package ht.platform.support.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The operationId check of every service's document fails on what it is there to catch. */
class OperationIdCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aMissingASharedAndAnOffStyleOperationIdAreEachNamed() throws Exception {
        var document = JSON.readTree("""
                {"paths": {
                   "/api/v1/payments": {"get": {"operationId": "listPayments"}, "post": {"summary": "no id"}},
                   "/api/v1/payments/{id}": {"parameters": [], "get": {"operationId": "listPayments"}},
                   "/api/v1/balance": {"get": {"operationId": "api_v1_balance_get"}}},
                 "webhooks": {"payment.succeeded": {"post": {"operationId": "receivePaymentSucceeded"}}}}""");
        List<String> problems = OpenApiDocumentContract.operationIdProblems(document);
        assertEquals(List.of("POST /api/v1/payments has no operationId",
                "GET /api/v1/balance: api_v1_balance_get is not in lower camelCase (createPayment)",
                "listPayments is the operationId of [GET /api/v1/payments, GET /api/v1/payments/{id}]"), problems);
    }

    @Test
    void aDocumentWhoseOperationsEachHaveTheirOwnPasses() throws Exception {
        var document = JSON.readTree("""
                {"paths": {"/api/v1/payments": {"get": {"operationId": "listPayments"}, "post": {"operationId": "createPayment"}}},
                 "webhooks": {"payment.succeeded": {"post": {"operationId": "receivePaymentSucceeded"}}}}""");
        assertEquals(List.of(), OpenApiDocumentContract.operationIdProblems(document));
    }
}
