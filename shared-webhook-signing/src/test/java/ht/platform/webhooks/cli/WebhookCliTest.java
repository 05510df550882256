package ht.platform.webhooks.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command-line verifier against every line of the published test vectors, as a user would call it. */
class WebhookCliTest {

    record Run(int status, String out) { }

    static Run verify(List<String> args, String body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WebhookCli.run(args.toArray(String[]::new), new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    }

    /** The command line a receiver of this vector's delivery would type: the vector's headers, its secrets. */
    static List<String> command(String[] f, String secrets, boolean fixedNow) {
        String scheme = f[0].equals("GATEWAY") ? "wallet" : f[0].toLowerCase(Locale.ROOT);
        List<String> args = new ArrayList<>(List.of("verify", "--scheme", scheme));
        if (fixedNow) {
            args.addAll(List.of("--now", f[2]));
        }
        for (String secret : secrets.split(",")) {
            args.addAll(List.of("--secret", secret));
        }
        if (f[0].equals("CHECKOUT")) {
            args.addAll(List.of("--header", "Checkout-Timestamp: " + f[2]));
        } else if (f[0].equals("GATEWAY")) {
            args.addAll(List.of("--header", "X-Gateway-Timestamp: " + f[2], "--header", "X-Gateway-Event-ID: " + f[3]));
        }
        args.addAll(List.of("--header", f[5] + ": " + f[6]));
        return args;
    }

    static List<String[]> vectors() throws IOException {
        try (InputStream in = WebhookCliTest.class.getResourceAsStream("/test-vectors.txt")) {
            List<String[]> lines = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    lines.add(line.split("\\|", -1));
                }
            }
            return lines;
        }
    }

    @Test
    void everyPublishedVectorVerifiesWithEachOfItsSecretsAndFailsWhenTampered() throws IOException {
        List<String[]> vectors = vectors();
        assertTrue(vectors.size() >= 7, "vectors read: " + vectors.size());
        for (String[] f : vectors) {
            for (String secret : f[1].split(",")) {
                Run ok = verify(command(f, secret, true), f[4]);
                assertEquals(0, ok.status(), String.join("|", f) + " -> " + ok.out());
                assertTrue(ok.out().startsWith("VALID"), ok.out());
            }
            Run tampered = verify(command(f, f[1], true), f[4] + " ");
            assertEquals(1, tampered.status(), tampered.out());
            assertEquals("INVALID NO_MATCHING_SIGNATURE", tampered.out().trim());
            Run wrongSecret = verify(command(f, "whsec_not_the_secret", true), f[4]);
            assertEquals("INVALID NO_MATCHING_SIGNATURE", wrongSecret.out().trim());
        }
    }

    @Test
    void anOldTimestampIsRefusedOnTheRealClockAndUsageErrorsExitTwo() throws IOException {
        String[] f = vectors().get(0);
        Run late = verify(command(f, f[1].split(",")[0], false), f[4]);
        assertEquals(1, late.status(), late.out());
        assertEquals("INVALID TIMESTAMP_OUTSIDE_TOLERANCE", late.out().trim());
        assertEquals(2, verify(List.of("verify", "--scheme", "paypal", "--secret", "x"), "").status());
        assertEquals(2, verify(List.of("sign"), "").status());
        assertEquals(2, verify(List.of("verify", "--header", "no colon", "--scheme", "kyc", "--secret", "s"), "").status());
        assertEquals(2, verify(List.of("verify", "--scheme", "kyc"), "").status());
    }
}
