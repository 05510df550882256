package ht.platform.webhooks.cli;

import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.VerificationResult;
import ht.platform.webhooks.signing.WebhookVerifier;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The command line: {@code verify} reads one delivery's raw body on standard input and checks its signature headers;
 * {@code listen} follows a service's event feed and forwards each event to a local URL ({@link FeedListener}).
 *
 * <pre>
 * java -jar shared-webhook-signing-VERSION.jar verify --scheme wallet --secret whsec_… \
 *      --header 'X-Gateway-Timestamp: 1763800000' --header 'X-Gateway-Event-ID: evt_…' \
 *      --header 'X-Gateway-Signature: v1=…' [--now UNIX_SECONDS] [--tolerance SECONDS] &lt; body.json
 * </pre>
 *
 * Prints {@code VALID …} and exits 0, or {@code INVALID <reason>} and exits 1; a usage error exits 2.
 * {@code --scheme} is {@code kyc}, {@code checkout} or {@code wallet} (the wallet gateway's scheme, also
 * {@code gateway}); {@code --secret} may repeat (rotation: any one may match).
 */
public final class WebhookCli {

    private static final String USAGE = "usage: verify --scheme kyc|checkout|wallet --secret whsec_… [--secret …] "
            + "--header 'Name: value' [--header …] [--now UNIX_SECONDS] [--tolerance SECONDS] < body\n"
            + "       " + ListenOptions.USAGE;

    private WebhookCli() { }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length > 0 && args[0].equals("listen")) {
            System.exit(listen(args, System.out, System.err, true));
        }
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs {@code verify}; answers the exit status. */
    public static int run(String[] args, InputStream body, PrintStream out, PrintStream err) throws IOException {
        if (args.length == 0 || !args[0].equals("verify")) {
            err.println(USAGE);
            return 2;
        }
        SignatureScheme scheme = null;
        List<String> secrets = new ArrayList<>();
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Clock clock = Clock.systemUTC();
        Duration tolerance = WebhookVerifier.DEFAULT_TOLERANCE;
        try {
            for (int i = 1; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                String value = args[i + 1];
                switch (args[i]) {
                    case "--scheme" -> scheme = scheme(value);
                    case "--secret" -> secrets.add(value);
                    case "--header" -> {
                        int colon = value.indexOf(':');
                        if (colon <= 0) {
                            throw new IllegalArgumentException("a header is 'Name: value', not " + value);
                        }
                        headers.put(value.substring(0, colon).trim(), value.substring(colon + 1).trim());
                    }
                    case "--now" -> clock = Clock.fixed(Instant.ofEpochSecond(Long.parseLong(value)), ZoneOffset.UTC);
                    case "--tolerance" -> tolerance = Duration.ofSeconds(Long.parseLong(value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (scheme == null || secrets.isEmpty()) {
                throw new IllegalArgumentException("--scheme and --secret are required");
            }
            VerificationResult result = new WebhookVerifier(scheme, secrets, tolerance, clock)
                    .verify(headers::get, body.readAllBytes());
            if (result.valid()) {
                out.println("VALID " + scheme.name().toLowerCase(Locale.ROOT) + " signature, timestamp " + result.timestamp()
                        + (result.eventId() == null ? "" : ", event " + result.eventId()));
                return 0;
            }
            out.println("INVALID " + result.failure());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
    }

    /** Runs {@code listen} until it is stopped (Ctrl-C when {@code stopOnExit}); answers the exit status. */
    static int listen(String[] args, PrintStream out, PrintStream err, boolean stopOnExit) throws InterruptedException {
        FeedListener listener;
        try {
            listener = FeedListener.of(args, out);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (stopOnExit) {
            Runtime.getRuntime().addShutdownHook(new Thread(listener::stop));
        }
        return listener.run();
    }

    private static SignatureScheme scheme(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "kyc" -> SignatureScheme.KYC;
            case "checkout" -> SignatureScheme.CHECKOUT;
            case "wallet", "gateway" -> SignatureScheme.GATEWAY;
            default -> throw new IllegalArgumentException("unknown scheme " + name + " (kyc, checkout or wallet)");
        };
    }
}
