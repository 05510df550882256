package ht.platform.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** What the three tours share: the key on every request of a generated client, and the operator's answers. */
final class Tours {

    static final ObjectMapper JSON = new ObjectMapper();

    private Tours() { }

    /** The generated Java clients' request interceptor: {@code Authorization: Bearer <key>}, as the document's ApiKey scheme says. */
    static Consumer<HttpRequest.Builder> bearer(String key) {
        return request -> request.header("Authorization", "Bearer " + key);
    }

    static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    /** A file the TypeScript tour writes the webhook secret to the moment it is shown; read by the receiver. */
    static Path secretFile(String tour) throws IOException {
        Path file = Path.of("target", tour + "-secret.txt").toAbsolutePath();
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        return file;
    }

    static long millis(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
