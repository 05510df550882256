package ht.platform.webhooks.signing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One line of {@code test-vectors.txt}. */
record TestVector(SignatureScheme scheme, List<String> secrets, long timestamp, String eventId, String body,
                  String headerName, String headerValue) {

    byte[] rawBody() {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    /** The delivery headers as a receiver sees them, built from the vector only. */
    Map<String, String> receivedHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        if (scheme == SignatureScheme.CHECKOUT) {
            headers.put("Checkout-Timestamp", Long.toString(timestamp));
        } else if (scheme == SignatureScheme.GATEWAY) {
            headers.put("X-Gateway-Timestamp", Long.toString(timestamp));
            headers.put("X-Gateway-Event-ID", eventId);
        }
        headers.put(headerName, headerValue);
        headers.put("Content-Type", "application/json");
        return headers;
    }

    @Override
    public String toString() {
        return scheme + " with " + secrets.size() + " secret(s), body of " + rawBody().length + " bytes";
    }

    static List<TestVector> load() {
        try (InputStream in = TestVector.class.getResourceAsStream("/test-vectors.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<TestVector> vectors = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|", -1);
                if (f.length != 7) {
                    throw new IllegalStateException("bad vector line: " + line);
                }
                vectors.add(new TestVector(SignatureScheme.valueOf(f[0]), List.of(f[1].split(",")),
                        Long.parseLong(f[2]), f[3].equals("-") ? null : f[3], f[4], f[5], f[6]));
            }
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
