package ht.platform.kyc.provider;

import ht.platform.support.crypto.Randomness;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The face sidecar next to kyc-service in the same pod ({@code kyc-service/face-sidecar}: face-api's SSD MobileNet v1
 * detector, 68-point landmarks and 128-d recognition net on TensorFlow.js' wasm backend, models from the npm package).
 * It listens on 127.0.0.1 only and answers only requests carrying its secret: the pixels (raw RGB, scaled down to {@code maxSide}) go over the pod's loopback and
 * nothing else; the answer is the faces. Blocking, with bounded timeouts: it runs on the image workers.
 */
public final class FaceSidecar implements FaceMatcher {

    public static final String MODEL = "face-api 1.7.15 (SSD MobileNet v1 detector, 68-point landmarks, ResNet-34 128-d descriptor)"
            + " + MobileFace 256-d descriptor (five-point aligned)";

    private final URI base;
    private final Supplier<String> secret;
    private final Duration timeout;
    private final int maxSide;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private static final long RECHECK_NANOS = Duration.ofSeconds(10).toNanos();
    private volatile boolean healthy;
    private volatile long checkedAt = System.nanoTime() - RECHECK_NANOS;

    public FaceSidecar(URI base, Supplier<String> secret, Duration timeout, int maxSide) {
        this.base = base;
        this.secret = secret;
        this.timeout = timeout;
        this.maxSide = maxSide;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * The sidecar's secret: the configured one, or the one it drew at its start, read from its file at each request
     * (a restarted sidecar has drawn a new one); empty when there is none or when the file could have been planted by
     * someone else, which the sidecar refuses (the decision's retryable technical_error).
     */
    public static Supplier<String> secret(Optional<String> token, Optional<Path> file, URI base) {
        if (token.isPresent()) {
            return token::get;
        }
        Path path = file.orElse(Path.of(System.getProperty("java.io.tmpdir"), "kyc-face-sidecar-" + base.getPort(), "token"));
        return () -> PrivateFile.read(path).orElse("");
    }

    @Override
    public String model() {
        return MODEL;
    }

    /**
     * Whether the sidecar answers with its models loaded: its health probe, asked at most every 10 s (a busy sidecar
     * answers late, and an answered detection counts as healthy too), so the capabilities do not flap or wait on it.
     */
    @Override
    public boolean ready() {
        long now = System.nanoTime();
        if (now - checkedAt < RECHECK_NANOS) {
            return healthy;
        }
        boolean up;
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(base.resolve("/health")).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            up = r.statusCode() == 200;
        } catch (IOException e) {
            up = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            up = false;
        }
        healthy = up;
        checkedAt = System.nanoTime();
        return up;
    }

    @Override
    public List<Face> faces(BufferedImage image) {
        double scale = Math.min(1.0, (double) maxSide / Math.max(image.getWidth(), image.getHeight()));
        int w = Math.max(1, (int) Math.round(image.getWidth() * scale));
        int h = Math.max(1, (int) Math.round(image.getHeight() * scale));
        String shared = secret.get();
        prove(shared);
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/faces")).timeout(timeout)
                .header("Content-Type", "application/octet-stream").header("Authorization", "Bearer " + shared).header("X-Width", Integer.toString(w))
                .header("X-Height", Integer.toString(h)).POST(HttpRequest.BodyPublishers.ofByteArray(rgb(image, w, h))).build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("face sidecar unreachable or too slow", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the face sidecar", e);
        }
        if (response.statusCode() != 200) {
            // refused (401 secret, 413 size, 503 busy) or failed: the decision ends technical_error and can be retried
            throw new IllegalStateException("face sidecar answered " + response.statusCode());
        }
        healthy = true;
        checkedAt = System.nanoTime();
        try {
            List<Face> faces = new ArrayList<>();
            for (JsonNode f : json.readTree(response.body()).path("faces")) {
                JsonNode box = f.path("box");
                JsonNode eyes = f.path("eyes");
                faces.add(new Face(f.path("score").asDouble(), (int) (box.path("x").asDouble() / scale), (int) (box.path("y").asDouble() / scale),
                        (int) (box.path("width").asDouble() / scale), (int) (box.path("height").asDouble() / scale),
                        point(eyes.path(0), scale), point(eyes.path(1), scale), numbers(f.path("descriptor")), numbers(f.path("embedding"))));
            }
            faces.sort(Comparator.comparingLong(Face::area).reversed());
            return faces;
        } catch (IOException e) {
            throw new UncheckedIOException("face sidecar answer unreadable", e);
        }
    }

    /**
     * Asks whatever listens on the sidecar's address to prove it holds the shared secret (an HMAC of a fresh nonce)
     * before the secret or any image leaves: anything else there is the sidecar unavailable (technical_error).
     */
    private void prove(String shared) {
        byte[] bytes = new byte[32];
        Randomness.secure().nextBytes(bytes);
        String nonce = HexFormat.of().formatHex(bytes);
        HttpResponse<Void> answer;
        try {
            answer = http.send(HttpRequest.newBuilder(base.resolve("/challenge")).timeout(Duration.ofSeconds(5))
                    .header("X-Nonce", nonce).GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException("face sidecar unreachable or too slow", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the face sidecar", e);
        }
        byte[] expected = proof(shared, nonce).getBytes(StandardCharsets.US_ASCII);
        byte[] given = answer.headers().firstValue("X-Proof").orElse("").getBytes(StandardCharsets.US_ASCII);
        if (shared.isEmpty() || answer.statusCode() != 200 || !MessageDigest.isEqual(expected, given)) {
            throw new IllegalStateException("whatever answers at " + base + " did not prove the face sidecar's secret");
        }
    }

    /** HMAC-SHA256 of the nonce keyed with the shared secret, as the sidecar computes it (server.js proof()). */
    static String proof(String shared, String nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(shared.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(("kyc-face-sidecar-proof:" + nonce).getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static float[] numbers(JsonNode array) {
        float[] values = new float[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) array.get(i).asDouble();
        }
        return values;
    }

    private static Point point(JsonNode p, double scale) {
        return new Point(p.path("x").asDouble() / scale, p.path("y").asDouble() / scale);
    }

    /** The image scaled to w × h (halved step by step first, so a large photo is not aliased), as packed RGB bytes. */
    static byte[] rgb(BufferedImage image, int w, int h) {
        BufferedImage source = image;
        while (source.getWidth() / 2 >= w && source.getHeight() / 2 >= h) {
            source = scaled(source, source.getWidth() / 2, source.getHeight() / 2);
        }
        BufferedImage scaled = scaled(source, w, h);
        byte[] bgr = ((DataBufferByte) scaled.getRaster().getDataBuffer()).getData();
        byte[] rgb = new byte[bgr.length];
        for (int i = 0; i < bgr.length; i += 3) {
            rgb[i] = bgr[i + 2];
            rgb[i + 1] = bgr[i + 1];
            rgb[i + 2] = bgr[i];
        }
        return rgb;
    }

    private static BufferedImage scaled(BufferedImage image, int w, int h) {
        BufferedImage scaled = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
        var g = scaled.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
        g.drawImage(image, 0, 0, w, h, null);
        g.dispose();
        return scaled;
    }
}
