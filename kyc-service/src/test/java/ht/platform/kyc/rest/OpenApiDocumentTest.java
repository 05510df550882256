package ht.platform.kyc.rest;

import ht.platform.support.testing.OpenApiDocumentContract;
import io.quarkus.test.junit.QuarkusTest;

/** The served /openapi.json: an operationId for every operation, and no problem for Redocly's recommended rules. */
@QuarkusTest
class OpenApiDocumentTest extends OpenApiDocumentContract {
}
