package ht.platform.kyc.provider;

import com.sun.net.httpserver.HttpServer;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The real face sidecar refuses before it reads, proves its secret back to kyc before an image leaves, and stops in
 * order: a trickling unauthenticated body is cut at its deadline while kyc is served, an impostor on the port gets no
 * image, and SIGTERM lets the admitted requests answer, removes the secret's file and exits 0.
 */
class FaceSidecarTrustTest {

    private static FaceSidecar client(String base, Path tokenFile) {
        URI uri = URI.create(base);
        return new FaceSidecar(uri, FaceSidecar.secret(Optional.empty(), Optional.of(tokenFile), uri), Duration.ofSeconds(60), 1024);
    }

    private static Path tokenFile() throws Exception {
        return Files.createTempDirectory("face-token").resolve("token");
    }

    @Test
    void aTricklingUnauthenticatedBodyIsRefusedAtOnceAndCutWhileKycIsServed() throws Exception {
        Path tokenFile = tokenFile();
        FaceSidecarResource sidecar = FaceSidecarResource.started(Map.of("FACE_SIDECAR_TOKEN_FILE", tokenFile.toString(),
                "FACE_SIDECAR_MAX_CONNECTIONS", "8", "FACE_SIDECAR_MAX_PENDING", "8", "FACE_SIDECAR_REFUSED_BODY_MS", "2000"));
        List<Socket> tricklers = new ArrayList<>();
        try {
            URI base = URI.create(sidecar.base());
            // more trickling uploads than the sidecar has places for: each declares a whole image and sends a byte
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket(base.getHost(), base.getPort());
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("POST /faces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + FaceSidecarResource.newToken() + "\r\nX-Width: 512\r\nX-Height: 512\r\nContent-Length: "
                        + (512 * 512 * 3) + "\r\n\r\nx").getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                tricklers.add(s);
            }
            assertEquals(1, client(sidecar.base(), tokenFile).faces(FacePhotos.photo(FacePhotos.ASTRONAUT)).size(),
                    "kyc's request is served beside them");
            Socket first = tricklers.get(tricklers.size() - 1);
            long began = System.nanoTime();
            String status = statusLine(first.getInputStream());
            assertTrue(status.contains(" 401 "), "refused before its body is read: " + status);
            OutputStream out = first.getOutputStream();
            boolean cut = false;
            for (int i = 0; i < 100 && !cut; i++) {
                try {
                    out.write('x');
                    out.flush();
                    Thread.sleep(100); // a trickle: one byte each 100 ms
                } catch (java.io.IOException e) {
                    cut = true;
                }
            }
            assertTrue(cut, "the trickle is cut");
            long millis = Duration.ofNanos(System.nanoTime() - began).toMillis();
            assertTrue(millis < 5_000, "cut within the deadline (2 s), took " + millis + " ms");
        } finally {
            for (Socket s : tricklers) {
                s.close();
            }
            sidecar.stop();
        }
    }

    @Test
    void anImpostorOnTheSidecarsPortGetsNeitherTheImageNorTheSecret() throws Exception {
        Path tokenFile = tokenFile();
        Files.createDirectories(tokenFile.getParent());
        String secret = FaceSidecarResource.newToken();
        Files.writeString(tokenFile, secret);
        Files.setPosixFilePermissions(tokenFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer impostor = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        impostor.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + body.length + " "
                    + exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] answer = "{\"faces\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Proof", "0".repeat(64));
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        impostor.start();
        try {
            FaceSidecar kyc = client("http://127.0.0.1:" + impostor.getAddress().getPort(), tokenFile);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> kyc.faces(FacePhotos.photo(FacePhotos.ASTRONAUT)));
            assertTrue(refused.getMessage().contains("did not prove"), refused.getMessage());
            assertFalse(seen.isEmpty(), "the impostor was asked for its proof");
            assertTrue(seen.stream().noneMatch(r -> r.contains("/faces") || r.contains(secret)), seen.toString());
        } finally {
            impostor.stop(0);
        }
    }

    @Test
    void sigtermLetsTheAdmittedRequestAnswerRemovesTheSecretsFileAndExitsZero() throws Exception {
        Path tokenFile = tokenFile();
        FaceSidecarResource sidecar = FaceSidecarResource.started(Map.of("FACE_SIDECAR_TOKEN_FILE", tokenFile.toString(),
                "FACE_SIDECAR_CONCURRENCY", "1", "FACE_SIDECAR_QUEUE", "1"));
        try {
            assertTrue(Files.exists(tokenFile));
            String auth = "Bearer " + Files.readString(tokenFile).strip();
            BufferedImage photo = FacePhotos.photo(3);
            int w = 1024;
            int h = (int) Math.round(1024.0 * photo.getHeight() / photo.getWidth());
            byte[] pixels = FaceSidecar.rgb(photo, w, h);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<Integer>> sent = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                sent.add(http.sendAsync(HttpRequest.newBuilder(URI.create(sidecar.base() + "/faces")).timeout(Duration.ofSeconds(120))
                        .header("Authorization", auth).header("X-Width", Integer.toString(w)).header("X-Height", Integer.toString(h))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(pixels)).build(), HttpResponse.BodyHandlers.discarding())
                        .thenApply(HttpResponse::statusCode));
            }
            // one runs, the other waits admitted: once the first has answered, the second is in flight for sure
            CompletableFuture.anyOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            Process process = sidecar.process();
            process.destroy(); // SIGTERM
            assertEquals(List.of(200, 200), List.of(sent.get(0).get(60, TimeUnit.SECONDS), sent.get(1).get(60, TimeUnit.SECONDS)),
                    "both requests in flight answered");
            assertTrue(process.waitFor(15, TimeUnit.SECONDS), "exits");
            assertEquals(0, process.exitValue());
            assertFalse(Files.exists(tokenFile), "the secret's file is removed");
            assertThrows(java.io.IOException.class, () -> http.send(HttpRequest.newBuilder(URI.create(sidecar.base() + "/health"))
                    .build(), HttpResponse.BodyHandlers.discarding()), "nothing listens any more");
        } finally {
            sidecar.stop();
        }
    }

    private static String statusLine(InputStream in) throws java.io.IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString();
    }
}
