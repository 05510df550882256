package ht.platform.support.outbox;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class StorableTextTest {

    @Test
    void nulAndMalformedBytesBecomeReplacementCharacters() {
        byte[] bytes = {'o', 'k', 0, 'b', (byte) 0xFF, (byte) 0xC3, (byte) 0xA9};
        assertEquals("ok\uFFFDb\uFFFDé", StorableText.decode(bytes));
    }

    @Test
    void aCutMultiByteCharacterAtTheEndIsReplacedNotThrown() {
        byte[] cut = "añ".getBytes(StandardCharsets.UTF_8);
        byte[] partial = java.util.Arrays.copyOf(cut, cut.length - 1);
        assertEquals("a\uFFFD", StorableText.decode(partial));
    }

    @Test
    void textIsBoundedWithoutSplittingASurrogatePair() {
        assertEquals("ab", StorableText.of("ab\u0000", 2));
        assertEquals("a", StorableText.of("a\uD83D\uDE00", 2));
        assertEquals("x\uFFFDy", StorableText.of("x\u0000y", 10));
        assertEquals("\uFFFD", StorableText.of("\uDE00", 10));
        assertNull(StorableText.of(null, 5));
    }
}
