package ht.platform.support.testing;

import io.restassured.RestAssured;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 with the exact bytes a test writes: the request target goes on the wire as given (no normalization, no
 * re-encoding), which neither REST Assured nor java.net.http guarantee. One request per connection.
 */
public final class RawHttp {

    /** Status, headers (lower-case names) and body of one answer. */
    public record Answer(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() { }

    /** The service under test, as REST Assured was pointed at it by {@code @QuarkusTest}/{@code @QuarkusIntegrationTest}. */
    public static Answer send(String method, String target, Map<String, String> headers, String body) {
        URI base = URI.create(RestAssured.baseURI);
        int port = RestAssured.port > 0 ? RestAssured.port : base.getPort();
        return send(base.getHost(), port, method, target, headers, body);
    }

    public static Answer send(String host, int port, String method, String target, Map<String, String> headers, String body) {
        return send(host, port, null, method, target, headers, body);
    }

    /**
     * From another client address: {@code from} is a loopback address such as 127.0.0.7 (Linux answers all of
     * 127/8 on lo), so a test of a per-address limit has an address of its own. The service must listen on 127.0.0.1
     * or on every address.
     */
    public static Answer sendFrom(String from, String method, String target, Map<String, String> headers) {
        URI base = URI.create(RestAssured.baseURI);
        int port = RestAssured.port > 0 ? RestAssured.port : base.getPort();
        try {
            return send("127.0.0.1", port, java.net.InetAddress.getByName(from), method, target, headers, null);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(from, e);
        }
    }

    private static Answer send(String host, int port, java.net.InetAddress from, String method, String target,
                               Map<String, String> headers, String body) {
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(':').append(port).append("\r\n")
                .append("Connection: close\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(payload.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = from == null ? new Socket(host, port) : new Socket(host, port, from, 0)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(payload);
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + target + " failed: " + e, e);
        }
    }

    private static Answer parse(byte[] raw) throws IOException {
        String text = new String(raw, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Answer(status, headers, body);
    }

    private static String unchunk(String chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = chunked.getBytes(StandardCharsets.UTF_8);
        int i = 0;
        while (i < bytes.length) {
            int lineEnd = indexOf(bytes, i);
            if (lineEnd < 0) {
                break;
            }
            String size = new String(bytes, i, lineEnd - i, StandardCharsets.US_ASCII).split(";")[0].trim();
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(bytes, lineEnd + 2, n);
            i = lineEnd + 2 + n + 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
