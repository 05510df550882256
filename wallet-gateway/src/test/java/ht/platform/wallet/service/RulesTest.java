package ht.platform.wallet.service;

import ht.platform.wallet.web.PageTexts;
import org.junit.jupiter.api.Test;

import java.util.Set;

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
        assertEquals("en", PageTexts.choose("en", "ht"));
        assertEquals("ht", PageTexts.choose("HT", null));
        assertEquals("ht", PageTexts.choose("de", "ht-HT,fr;q=0.8"));
        assertEquals("en", PageTexts.choose(null, "de-DE,en-US;q=0.7,fr;q=0.5"));
        assertEquals("fr", PageTexts.choose(null, "de-DE"));
        assertEquals("fr", PageTexts.choose(null, "%%%garbage"));
        assertEquals("fr", PageTexts.choose(null, null));
    }

    @Test
    void everyLanguageHasEveryText() {
        Set<String> french = PageTexts.of("fr").keySet();
        for (String lang : PageTexts.LANGUAGES) {
            assertEquals(french, PageTexts.of(lang).keySet(), lang);
            PageTexts.of(lang).forEach((k, v) -> assertEquals(false, v.isBlank(), lang + ":" + k));
        }
    }
}
