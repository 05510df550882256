package ht.platform.support.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StrictUtf8Test {

    final ObjectMapper mapper = mapper();

    static ObjectMapper mapper() {
        ObjectMapper m = new ObjectMapper();
        new StrictJson().customize(m);
        return m;
    }

    @Test
    void overlongSurrogateAndOutOfRangeFormsAreRefusedFromBytesAndStreams() {
        for (String bad : new String[] {"c0af", "e080af", "f08080af", "c1bf", "eda080", "f4908080", "f5808080", "80", "e282"}) {
            byte[] body = body(bad);
            assertThrows(JsonParseException.class, () -> mapper.readTree(body), bad);
            assertThrows(JsonParseException.class, () -> mapper.readTree(new ByteArrayInputStream(body)), bad);
        }
    }

    @Test
    void wellFormedTextOfEveryLengthReadsAsItIs() throws Exception {
        String text = "a/é€𝄞\u07ff\uffff";
        byte[] body = ("{\"v\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals(text, mapper.readTree(body).get("v").asText());
        assertEquals(text, mapper.readTree(new ByteArrayInputStream(body)).get("v").asText());
    }

    private static byte[] body(String hex) {
        byte[] inner = HexFormat.of().parseHex(hex);
        byte[] start = "{\"v\":\"a".getBytes(StandardCharsets.US_ASCII);
        byte[] end = "b\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[start.length + inner.length + end.length];
        System.arraycopy(start, 0, out, 0, start.length);
        System.arraycopy(inner, 0, out, start.length, inner.length);
        System.arraycopy(end, 0, out, start.length + inner.length, end.length);
        return out;
    }
}
