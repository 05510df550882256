package ht.platform.kyc;

import ht.platform.support.testing.TestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the database keeps of a decided verification's photos: nothing, and the time they were erased. */
public final class Erasure {

    private Erasure() { }

    public static void assertErased(String verificationId) throws Exception {
        try (Connection db = TestDatabase.connect();
             PreparedStatement ps = db.prepareStatement("SELECT (SELECT count(*) FROM kyc.verification_images i WHERE i.verification_id = v.id),"
                     + " v.images_erased_at IS NOT NULL FROM kyc.verifications v WHERE v.id = ?")) {
            ps.setString(1, verificationId);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no verification " + verificationId);
                assertEquals(0, rs.getLong(1), "images erased");
                assertTrue(rs.getBoolean(2), "erasure recorded");
            }
        }
    }
}
