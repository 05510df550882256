package ht.platform.wallet.service;

import ht.platform.support.testing.MessageBundleContract;
import ht.platform.support.web.PageLanguage;
import ht.platform.wallet.web.Messages;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Plain rules: the fee arithmetic, the msisdn mask, the page language choice and complete translations. */
class RulesTest {

    @Test
    void feeIsRoundedUpBasisPointsWithAMinimum() {
        assertEquals(25, Fees.fee(1000, 250, 1));
        assertEquals(1, Fees.fee(1, 250, 1));
        assertEquals(1, Fees.fee(40, 250, 1));
        assertEquals(2, Fees.fee(41, 250, 1));
        assertEquals(25_000_000, Fees.fee(1_000_000_000, 250, 1));
        assertEquals(10, Fees.fee(1000, 100, 1));
        assertEquals(5, Fees.fee(10, 100, 5));
        assertThrows(ArithmeticException.class, () -> Fees.fee(Long.MAX_VALUE / 2, 250, 1));
    }

    @Test
    void msisdnKeepsOnlyTheLastFourDigits() {
        assertEquals("+*******1234", Views.mask("+50937001234"));
        assertEquals("****5678", Views.mask("12345678"));
    }

    @Test
    void languageComesFromTheQueryThenAcceptLanguageThenFrench() {
        assertEquals("en", PageLanguage.choose("en", "ht"));
        assertEquals("ht", PageLanguage.choose("HT", null));
        assertEquals("ht", PageLanguage.choose("de", "ht-HT,fr;q=0.8"));
        assertEquals("en", PageLanguage.choose(null, "de-DE,en-US;q=0.7,fr;q=0.5"));
        assertEquals("fr", PageLanguage.choose(null, "de-DE"));
        assertEquals("fr", PageLanguage.choose(null, "%%%garbage"));
        assertEquals("fr", PageLanguage.choose(null, null));
    }

    @Test
    void everyLanguageHasEveryText() throws Exception {
        MessageBundleContract.assertComplete(Messages.class);
    }
}
