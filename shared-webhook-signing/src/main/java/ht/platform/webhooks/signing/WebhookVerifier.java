package ht.platform.webhooks.signing;

import ht.platform.webhooks.signing.VerificationResult.Failure;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Verifies a received delivery: a {@code v1} signature must match one of the receiver's secrets (so a
 * receiver can hold the old and the new secret during a rotation), compared in constant time, and the
 * timestamp must be within the tolerance of the receiver's clock in either direction. Signature values of
 * other schemes (e.g. {@code v0=}) are ignored. Thread-safe.
 */
public final class WebhookVerifier {
    /** The tolerance of all three specifications. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final int MAC_LENGTH = 32;

    private final SignatureScheme scheme;
    private final List<String> secrets;
    private final Duration tolerance;
    private final Clock clock;

    /** A verifier with the 5-minute tolerance and the system UTC clock. */
    public WebhookVerifier(SignatureScheme scheme, List<String> secrets) {
        this(scheme, secrets, DEFAULT_TOLERANCE, Clock.systemUTC());
    }

    /**
     * @throws IllegalArgumentException on no secret, an empty secret or a negative tolerance
     */
    public WebhookVerifier(SignatureScheme scheme, List<String> secrets, Duration tolerance, Clock clock) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.secrets = WebhookSigner.requireSecrets(secrets);
        this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative");
        }
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Verifies one delivery.
     *
     * @param header  gives the value of a header by name, or null when absent; it must ignore case (as
     *                JAX-RS {@code HttpHeaders::getHeaderString} or Vert.x {@code MultiMap::get} do)
     * @param rawBody the body exactly as received, before any JSON parsing
     * @return the outcome; ordinary failures are results, never exceptions
     */
    public VerificationResult verify(Function<String, String> header, byte[] rawBody) {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(rawBody, "rawBody");
        Parsed parsed;
        try {
            parsed = switch (scheme) {
                case KYC -> parseKyc(header);
                case CHECKOUT -> parseCheckout(header);
                case GATEWAY -> parseGateway(header);
            };
        } catch (HeaderProblem problem) {
            return VerificationResult.failed(problem.failure);
        }
        byte[] payload = SignedPayload.of(scheme, parsed.timestamp, parsed.eventId, rawBody);
        if (!matches(payload, parsed.signatures)) {
            return VerificationResult.failed(Failure.NO_MATCHING_SIGNATURE, parsed.timestamp, parsed.eventId);
        }
        Duration skew = Duration.between(Instant.ofEpochSecond(parsed.timestamp), clock.instant()).abs();
        if (skew.compareTo(tolerance) > 0) {
            return VerificationResult.failed(Failure.TIMESTAMP_OUTSIDE_TOLERANCE, parsed.timestamp, parsed.eventId);
        }
        return VerificationResult.ok(parsed.timestamp, parsed.eventId);
    }

    /**
     * Same as {@link #verify(Function, byte[])} with header names matched ignoring case; values of names that
     * differ only in case are combined with a comma, as repeated header lines are.
     */
    public VerificationResult verify(Map<String, String> headers, byte[] rawBody) {
        Objects.requireNonNull(headers, "headers");
        Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, value) -> {
            if (name != null && value != null) {
                byName.merge(name, value, (a, b) -> a + "," + b);
            }
        });
        return verify(byName::get, rawBody);
    }

    private boolean matches(byte[] payload, List<byte[]> candidates) {
        boolean matched = false;
        for (String secret : secrets) {
            byte[] expected = WebhookSigner.hmac(secret, payload);
            for (byte[] candidate : candidates) {
                matched |= MessageDigest.isEqual(expected, candidate);
            }
        }
        return matched;
    }

    private static Parsed parseKyc(Function<String, String> header) {
        String value = require(header, WebhookHeaders.KYC_SIGNATURE);
        Long timestamp = null;
        List<byte[]> signatures = new ArrayList<>();
        for (String[] item : keyValues(value)) {
            if (item[0].equals("t")) {
                if (timestamp != null) {
                    throw new HeaderProblem(Failure.MALFORMED_HEADER);
                }
                timestamp = parseTimestamp(item[1]);
            } else if (item[0].equals("v1")) {
                signatures.add(parseHex(item[1]));
            }
        }
        if (timestamp == null) {
            throw new HeaderProblem(Failure.MALFORMED_HEADER);
        }
        return new Parsed(timestamp, null, signatures);
    }

    private static Parsed parseCheckout(Function<String, String> header) {
        String timestampValue = require(header, WebhookHeaders.CHECKOUT_TIMESTAMP);
        String signatureValue = require(header, WebhookHeaders.CHECKOUT_SIGNATURE);
        long timestamp = parseTimestamp(timestampValue);
        List<byte[]> signatures = new ArrayList<>();
        for (String part : signatureValue.split(",", -1)) {
            String hex = part.trim();
            if (!hex.isEmpty()) {
                signatures.add(parseHex(hex));
            }
        }
        return new Parsed(timestamp, null, signatures);
    }

    private static Parsed parseGateway(Function<String, String> header) {
        String timestampValue = require(header, WebhookHeaders.GATEWAY_TIMESTAMP);
        String eventId = require(header, WebhookHeaders.GATEWAY_EVENT_ID).trim();
        String signatureValue = require(header, WebhookHeaders.GATEWAY_SIGNATURE);
        long timestamp = parseTimestamp(timestampValue);
        if (!SignedPayload.isValidEventId(eventId)) {
            throw new HeaderProblem(Failure.MALFORMED_HEADER);
        }
        List<byte[]> signatures = new ArrayList<>();
        for (String[] item : keyValues(signatureValue)) {
            if (item[0].equals("v1")) {
                signatures.add(parseHex(item[1]));
            }
        }
        return new Parsed(timestamp, eventId, signatures);
    }

    private static String require(Function<String, String> header, String name) {
        String value = header.apply(name);
        if (value == null || value.isBlank()) {
            throw new HeaderProblem(Failure.MISSING_HEADER);
        }
        return value;
    }

    private static List<String[]> keyValues(String value) {
        List<String[]> items = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new HeaderProblem(Failure.MALFORMED_HEADER);
            }
            items.add(new String[] {item.substring(0, eq).trim(), item.substring(eq + 1).trim()});
        }
        return items;
    }

    private static long parseTimestamp(String text) {
        String digits = text.trim();
        if (digits.isEmpty() || digits.length() > 18) {
            throw new HeaderProblem(Failure.MALFORMED_HEADER);
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                throw new HeaderProblem(Failure.MALFORMED_HEADER);
            }
        }
        return Long.parseLong(digits);
    }

    private static byte[] parseHex(String hex) {
        if (hex.length() != MAC_LENGTH * 2) {
            throw new HeaderProblem(Failure.MALFORMED_HEADER);
        }
        byte[] out = new byte[MAC_LENGTH];
        for (int i = 0; i < MAC_LENGTH; i++) {
            int hi = hexValue(hex.charAt(2 * i));
            int lo = hexValue(hex.charAt(2 * i + 1));
            if (hi < 0 || lo < 0) {
                throw new HeaderProblem(Failure.MALFORMED_HEADER);
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private record Parsed(long timestamp, String eventId, List<byte[]> signatures) {
    }

    private static final class HeaderProblem extends RuntimeException {
        private final Failure failure;

        HeaderProblem(Failure failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }
}
