package ht.platform.support.auth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialsTest {

    private static final String M = Credentials.MASK;

    @Test
    void everyShapeIsMaskedWhereverItSits() {
        assertEquals("{\"secret\":\"whsec_" + M + "\"}", Credentials.mask("{\"secret\":\"whsec_abcdefghijklmnop1234\"}"));
        assertEquals("https://x/d?t=dl_" + M + "&a=1", Credentials.mask("https://x/d?t=dl_ABCDEFGHIJKLMNOPQR&a=1"));
        for (String prefix : new String[] {"kyc_test_", "kyc_live_", "co_test_", "co_live_", "gw_test_", "gw_live_"}) {
            String text = "key " + prefix + "0123456789abcdef_-XY.";
            assertEquals("key " + prefix + M + ".", Credentials.mask(text), text);
            assertTrue(Credentials.contains(text), text);
        }
    }

    @Test
    void textWithoutACredentialIsReturnedAsItIs() {
        String body = "{\"id\":\"pay_0123456789ab\",\"mode\":\"test\",\"wallet_url\":\"http://h/wallet/wpt_0123456789abcdef01234567\"}";
        assertSame(body, Credentials.mask(body));
        assertFalse(Credentials.contains(body));
        // the shapes' prefixes without enough characters after them, or inside a longer word, are not credentials
        for (String text : new String[] {"whsec_short", "dl_0123456789abcde", "xgw_test_0123456789abcdef", "gw_prod_0123456789abcdef"}) {
            assertEquals(text, Credentials.mask(text), text);
            assertFalse(Credentials.contains(text), text);
        }
        assertEquals(null, Credentials.mask(null));
        assertEquals("", Credentials.mask(""));
    }
}
