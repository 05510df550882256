package ht.platform.kyc.events;

import ht.platform.kyc.Images;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The walker itself: each kind of leak it must catch, at any depth, is caught (else a clean walk would prove nothing). */
class PrivacyWalkTest {

    static final String CLEAN = "{\"id\":\"kyc_ver_01M80T0CC8SR6R99NZA530SB7K\",\"status\":\"verified\",\"reason_codes\":[],"
            + "\"result\":{\"checks\":{\"document\":{\"status\":\"passed\",\"document_type\":\"passport\",\"issuing_country\":\"HT\"},"
            + "\"mrz\":{\"status\":\"passed\"},\"face\":{\"status\":\"passed\"}},\"decided_at\":\"2026-11-22T05:00:00Z\"},\"metadata\":{}}";

    @Test
    void cleanDocumentPassesAndEveryLeakIsCaught() {
        byte[] png = Images.sharp(40, 30, 1);
        String[] secrets = {"HT8841207", "BAPTISTE", "WIDLINE", "920314"};
        PrivacyWalk.assertClean(CLEAN, secrets);
        String[] leaks = {
            "\"metadata\":{\"note\":\"doc HT8841207\"}",                                        // document number inside free text
            "\"metadata\":{\"holder\":\"Widline Baptiste\"}",                                  // names, any case
            "\"metadata\":{\"deep\":[{\"x\":\"born 920314\"}]}",                                // birth date in an array
            "\"metadata\":{\"img\":\"" + Base64.getEncoder().encodeToString(png).substring(0, 100) + "\"}", // base64 PNG
            "\"metadata\":{\"img\":\"/9j/4AAQSkZJRgABAQ\"}",                                    // base64 JPEG
            "\"metadata\":{\"img\":\"data:image/png;base64,AAAA\"}",                            // data URL
            "\"metadata\":{\"img\":\"" + HexFormat.of().formatHex(png, 0, 16) + "\"}",          // hex PNG
            "\"metadata\":{\"selfie\":null}",                                                   // forbidden field names
            "\"metadata\":{\"face_template\":[0.1,0.2]}",
            "\"metadata\":{\"document_number\":\"x\"}",
            "\"metadata\":{\"birth_date\":\"x\"}",
            "\"metadata\":{\"blob\":\"" + "A".repeat(500) + "\"}",                             // anything image-sized
        };
        for (String leak : leaks) {
            String json = CLEAN.replace("\"metadata\":{}", leak);
            assertThrows(AssertionError.class, () -> PrivacyWalk.assertClean(json, secrets), leak);
        }
    }
}
