package ht.platform.checkout.rest;

import ht.platform.support.testing.LogCapture;
import ht.platform.support.testing.Waiting;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A body the HTTP decoder cannot read is the client's mistake: a 400 with the error body, a WARN at most, no trace. */
@QuarkusTest
class MalformedRequestTest {

    @TestHTTPResource("/api/v1/payment_intents")
    URI intents;

    @Test
    void aMalformedChunkedBodyGets400AndAtMostOneWarnLineWithoutATrace() throws Exception {
        try (LogCapture log = LogCapture.start()) {
            String first = send();
            assertTrue(first.startsWith("HTTP/1.1 400"), "answer: " + first);
            assertTrue(first.contains("\"code\":\"INVALID_REQUEST\"") && first.contains("\"request_id\""), first);
            for (int i = 0; i < 30; i++) {
                assertTrue(send().startsWith("HTTP/1.1 400"));
            }
            // the console log is asynchronous; the capture is not, but other handlers may lag: what holds now must go on holding
            Waiting.holdsFor("a quiet log", Duration.ofMillis(500), () -> {
                List<String> lines = log.lines();
                assertEquals(0, lines.stream().filter(l -> l.startsWith("SEVERE") || l.startsWith("ERROR")).count(),
                        "no ERROR line: " + lines);
                assertTrue(lines.stream().filter(l -> l.startsWith("WARN")).count() <= 1, "one WARN line at most: " + lines);
                assertTrue(lines.stream().noneMatch(l -> l.contains(" | ")), "no exception in the log: " + lines);
            });
        }
    }

    private String send() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(intents.getHost(), intents.getPort()), 5_000);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("POST " + intents.getPath() + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer co_test_malformed\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\nzz-not-a-size\r\n{}\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(out);
            } catch (SocketTimeoutException | java.net.SocketException e) {
                // what arrived so far is the answer
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }
}
