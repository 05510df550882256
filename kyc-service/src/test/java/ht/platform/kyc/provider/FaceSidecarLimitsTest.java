package ht.platform.kyc.provider;

import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real face sidecar's limits, against a sidecar of its own (one detection at a time, one waiting): a request
 * without its per-start secret is refused, an image above the size kyc sends is refused before its body is read, and
 * requests beyond the queue are refused at once; kyc-service's client turns each refusal into an error (the decision's
 * retryable technical_error).
 */
class FaceSidecarLimitsTest {

    static FaceSidecarResource sidecar;
    static Path tokenFile;
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        tokenFile = Files.createTempDirectory("face-token").resolve("token");
        sidecar = FaceSidecarResource.started(Map.of("FACE_SIDECAR_TOKEN_FILE", tokenFile.toString(), "FACE_SIDECAR_CONCURRENCY", "1",
                "FACE_SIDECAR_QUEUE", "1", "FACE_SIDECAR_MAX_SIDE", "1024"));
    }

    @AfterAll
    static void stop() {
        if (sidecar != null) {
            sidecar.stop();
        }
    }

    private static FaceSidecar client(Optional<String> token) {
        URI base = URI.create(sidecar.base());
        return new FaceSidecar(base, FaceSidecar.secret(token, Optional.of(tokenFile), base), Duration.ofSeconds(60), 1024);
    }

    private static HttpResponse<String> post(String authorization, int width, int height, byte[] body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(sidecar.base() + "/faces")).timeout(Duration.ofSeconds(60))
                .header("X-Width", Integer.toString(width)).header("X-Height", Integer.toString(height))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authorization != null) {
            r.header("Authorization", authorization);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theSecretDrawnAtStartIsWhatLetsARequestIn() throws Exception {
        String drawn = Files.readString(tokenFile).strip();
        assertEquals(64, drawn.length(), "32 random bytes, hex, readable by the sidecar's user only");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        BufferedImage face = FacePhotos.photo(FacePhotos.ASTRONAUT);
        assertEquals(1, client(Optional.empty()).faces(face).size(), "the secret read from the sidecar's file is accepted");

        byte[] pixels = FaceSidecar.rgb(face, 64, 64);
        assertEquals(401, post(null, 64, 64, pixels).statusCode(), "no secret");
        assertEquals(401, post("Bearer " + FaceSidecarResource.newToken(), 64, 64, pixels).statusCode(), "a guessed secret");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> client(Optional.of(FaceSidecarResource.newToken())).faces(face));
        // a client holding the wrong secret cannot check the sidecar's proof, so it sends nothing
        assertTrue(refused.getMessage().contains("did not prove"), refused.getMessage());
    }

    @Test
    void anImageLargerThanKycSendsIsRefusedBeforeItsBodyIsRead() throws Exception {
        String auth = "Bearer " + Files.readString(tokenFile).strip();
        assertEquals(413, post(auth, 1025, 10, new byte[1025 * 10 * 3]).statusCode(), "wider than the largest side kyc sends");
        assertEquals(413, post(auth, 100, 100, new byte[100 * 100 * 3 + 1]).statusCode(), "more bytes than the declared pixels");
        assertEquals(411, post(auth, 100, 100, new byte[10]).statusCode(), "fewer bytes than the declared pixels");
    }

    @Test
    void requestsBeyondOneRunningAndOneWaitingAreRefusedAtOnce() throws Exception {
        String auth = "Bearer " + Files.readString(tokenFile).strip();
        BufferedImage photo = FacePhotos.photo(3);
        int w = 1024;
        int h = (int) Math.round(1024.0 * photo.getHeight() / photo.getWidth());
        byte[] pixels = FaceSidecar.rgb(photo, w, h);
        HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<Integer>> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            HttpRequest r = HttpRequest.newBuilder(URI.create(sidecar.base() + "/faces")).timeout(Duration.ofSeconds(120))
                    .header("Authorization", auth).header("X-Width", Integer.toString(w)).header("X-Height", Integer.toString(h))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(pixels)).build();
            sent.add(fresh.sendAsync(r, HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode));
        }
        List<Integer> statuses = sent.stream().map(CompletableFuture::join).toList();
        assertTrue(statuses.stream().allMatch(s -> s == 200 || s == 503), statuses.toString());
        long answered = statuses.stream().filter(s -> s == 200).count();
        assertTrue(answered >= 1 && answered < 5, "one runs, one waits, the rest are refused: " + statuses);
        assertFalse(client(Optional.empty()).faces(FacePhotos.photo(FacePhotos.ASTRONAUT)).isEmpty(), "it answers again once free");
    }

    /**
     * Thirty connections that never finish their headers (no secret sent) take no place of kyc's: its authorized request
     * is answered at once, and the idle sockets are closed by the sidecar's header deadline (10 s).
     */
    @Test
    void idleUnauthenticatedConnectionsTakeNoPlace() throws Exception {
        List<java.net.Socket> idle = new ArrayList<>();
        try {
            URI base = URI.create(sidecar.base());
            for (int i = 0; i < 30; i++) {
                java.net.Socket s = new java.net.Socket(base.getHost(), base.getPort());
                s.getOutputStream().write("POST /faces HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                idle.add(s);
            }
            long began = System.nanoTime();
            assertEquals(1, client(Optional.empty()).faces(FacePhotos.photo(FacePhotos.ASTRONAUT)).size());
            assertTrue(System.nanoTime() - began < Duration.ofSeconds(10).toNanos(), "kyc's request waited for the idle sockets");
            java.net.Socket first = idle.get(0);
            first.setSoTimeout(25_000);
            assertEquals(-1, drain(first), "an idle socket is closed by the header deadline");
        } finally {
            for (java.net.Socket s : idle) {
                s.close();
            }
        }
    }

    /** Reads what the sidecar answered a socket that never finished its headers, then its end (-1). */
    private static int drain(java.net.Socket s) throws java.io.IOException {
        while (s.getInputStream().read() != -1) {
            // a 408 answer, then the close
        }
        return -1;
    }
}
