package ht.platform.kyc.model;

import ht.platform.support.testing.GenericPlans;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class VerificationStoreTest {

    /**
     * The API's read of one verification walks the primary key, also with a plan cached while the statistics predated most
     * of the owner's rows. With the owner in its WHERE clause it walked the owner's list index instead: in a benchmark
     * run, 12.7 ms a read instead of 0.007 ms.
     */
    @Test
    void theReadByIdWalksThePrimaryKeyWhateverTheStatistics() throws Exception {
        GenericPlans.assertOneOwnedReadWalksThePrimaryKey(VerificationStore.BY_ID, "kyc.verifications", "application_id");
    }
}
