package ht.platform.kyc.it;

import ht.platform.support.testing.GeneratedClient;
import org.junit.jupiter.api.Test;

/** The published /openapi.json is one a client generator can use: the Java client made from it compiles. */
class GeneratedClientIT {

    @Test
    void aClientGeneratedFromThePublishedDocumentCompiles() throws Exception {
        GeneratedClient.assertCompiles();
    }
}
