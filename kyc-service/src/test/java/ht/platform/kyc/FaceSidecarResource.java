package ht.platform.kyc;

import ht.platform.support.testing.MissingTool;
import ht.platform.support.testing.Waiting;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts the real face sidecar (kyc-service/face-sidecar, node server.js on 127.0.0.1 and a free port) for the live
 * tests and points kyc-service at it ({@code kyc.face.url}). Its packages come from the committed package-lock,
 * installed by {@code .ci/install-tools} ({@code npm ci}), never by a test. Without node or the packages the sidecar
 * is not started, and {@link #require()} fails the tests under {@code CI=true} and skips them elsewhere.
 */
public class FaceSidecarResource implements QuarkusTestResourceLifecycleManager {

    private static volatile String url;
    private static volatile String missing = "[live checks] SKIPPED: the face sidecar was not started";
    private Process process;

    /** The sidecar's directory (the tests run in kyc-service/). */
    public static Path directory() {
        Path here = Path.of("face-sidecar");
        return Files.isDirectory(here) ? here.toAbsolutePath() : Path.of("kyc-service", "face-sidecar").toAbsolutePath();
    }

    /** The face-api package's six demo photos (group photos; the faces of the tests and the evaluation). */
    public static Path demoPhotos() {
        return directory().resolve("node_modules/@vladmandic/face-api/demo");
    }

    /** {@link #demoPhotos()}; without them the calling test fails (CI) or is skipped. */
    public static Path requireDemoPhotos() {
        MissingTool.check(Files.isDirectory(demoPhotos()), "[live checks] no face-api demo photos at " + demoPhotos()
                + ": npm ci in " + directory());
        return demoPhotos();
    }

    /** Why the sidecar cannot run here (no node, no packages), or empty. */
    private static Optional<String> notInstalled() {
        if (MachineTools.find("node").isEmpty()) {
            return Optional.of(MachineTools.missing("node"));
        }
        Path dir = directory();
        if (!Files.isDirectory(dir.resolve("node_modules/@vladmandic/face-api/model"))) {
            return Optional.of("[live checks] the face sidecar's packages are not installed: npm ci in " + dir);
        }
        return Optional.empty();
    }

    public static String require() {
        MissingTool.check(url != null, missing);
        return url;
    }

    @Override
    public Map<String, String> start() {
        try {
            Optional<String> notInstalled = notInstalled();
            if (notInstalled.isPresent()) {
                missing = notInstalled.get();
                System.out.println(missing);
                return Map.of();
            }
            var node = MachineTools.find("node");
            String token = newToken();
            process = launch(node.get(), Map.of("FACE_SIDECAR_TOKEN", token));
            url = base;
            secret = token;
            return Map.of("kyc.face.url", base, "kyc.face.token", token);
        } catch (IOException e) {
            throw new IllegalStateException("face sidecar could not be started", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A secret as a deployment would draw it: 32 random bytes, hex. */
    public static String newToken() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private String base;

    /**
     * Starts {@code node server.js} on a free port with these settings added to its environment, and waits until it is
     * healthy (models loaded); its base URL is then {@link #base()}.
     */
    Process launch(String node, Map<String, String> settings) throws IOException, InterruptedException {
        Path dir = directory();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("face-sidecar-", ".log");
        ProcessBuilder builder = new ProcessBuilder(node, "server.js").directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("FACE_SIDECAR_PORT", Integer.toString(port));
        builder.environment().putAll(settings);
        process = builder.start();
        base = "http://127.0.0.1:" + port;
        if (!healthy(base, Duration.ofSeconds(120))) {
            stop();
            missing = "[live checks] face sidecar did not become healthy; its log: " + log;
            throw new IllegalStateException(missing + "\n" + Files.readString(log));
        }
        return process;
    }

    /** The sidecar's process (to signal it). */
    public Process process() {
        return process;
    }

    public String base() {
        return base;
    }

    /** The secret of the sidecar the live tests run against. */
    public static String secret() {
        return secret;
    }

    private static volatile String secret;

    /** A sidecar of its own with these settings (for the tests of its limits); stop it with {@link #stop()}. */
    public static FaceSidecarResource started(Map<String, String> settings) throws IOException, InterruptedException {
        Optional<String> notInstalled = notInstalled();
        MissingTool.check(notInstalled.isEmpty(), notInstalled.orElse(""));
        var node = MachineTools.find("node");
        FaceSidecarResource own = new FaceSidecarResource();
        own.own = true;
        own.launch(node.get(), settings);
        return own;
    }

    private boolean own;

    /** What runs against a detector of its own. */
    public interface DetectorWork {
        void run(ht.platform.kyc.provider.FaceSidecar detector) throws Exception;
    }

    /** Starts a sidecar of its own with a drawn secret, hands kyc's client of it to {@code work}, and stops it. */
    public static void withOwnDetector(DetectorWork work) throws Exception {
        String token = newToken();
        FaceSidecarResource sidecar = started(Map.of("FACE_SIDECAR_TOKEN", token));
        try {
            work.run(detector(sidecar.base(), token));
        } finally {
            sidecar.stop();
        }
    }

    /** kyc's client of the sidecar at {@code base} with this secret, as kyc configures it. */
    public static ht.platform.kyc.provider.FaceSidecar detector(String base, String token) {
        URI uri = URI.create(base);
        return new ht.platform.kyc.provider.FaceSidecar(uri, ht.platform.kyc.provider.FaceSidecar.secret(Optional.of(token), Optional.empty(), uri),
                Duration.ofSeconds(60), 1024);
    }

    private boolean healthy(String base, Duration within) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        try {
            Waiting.await("the face sidecar healthy", within).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptionsInstanceOf(IOException.class) // not listening yet
                    .failFast("the face sidecar exited", () -> !process.isAlive())
                    .until(() -> client.send(HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(2)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
            return true;
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            return false;
        }
    }

    @Override
    public void stop() {
        if (!own) {
            url = null;
        }
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
