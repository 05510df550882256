package ht.platform.webhooks.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonTest {

    @Test
    void readsNestedValuesEscapesAndNumbers() {
        Map<String, Object> v = Json.object(" {\"a\": [1, -2.5e3, 0, true, false, null, {}],"
                + " \"s\": \"q\\\"b\\\\s\\/n\\n\\t\\u00e9\\ud83d\\ude00\", \"o\": {\"x\": {\"y\": []}}} ");
        assertEquals(List.of(new BigDecimal("1"), new BigDecimal("-2.5e3"), new BigDecimal("0"), true, false),
                ((List<?>) v.get("a")).subList(0, 5));
        assertNull(((List<?>) v.get("a")).get(5));
        assertEquals("q\"b\\s/n\n\té😀", v.get("s"));
        assertEquals(Map.of("y", List.of()), ((Map<?, ?>) v.get("o")).get("x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\":}", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "\"open", "\"bad \\x\"",
            "\"short \\u12\"", "01", "-", "1.", "tru", "{} {}", "{'a':1}", "\"tab\there\"", "[1 2]"})
    void refusesWhatIsNotOneJsonValue(String text) {
        assertThrows(IllegalArgumentException.class, () -> Json.parse(text));
    }
}
