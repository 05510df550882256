package ht.platform.webhooks.cli;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What {@code listen} is told: the service, the key, where to forward, which events, where its cursor is kept and
 * where a first run starts.
 */
record ListenOptions(URI service, String key, List<String> secrets, URI forwardTo, List<String> events, String address,
                     Path cursorFile, boolean fromStart, Duration held) {

    static final String USAGE = "listen --service URL --key KEY --secret whsec_… [--secret …]"
            + " --forward-to http://localhost:3000/hooks [--allow-remote-forward]"
            + " [--events a,b] [--address ID] [--cursor-file PATH] [--from latest|start] [--wait SECONDS]";

    static ListenOptions parse(String[] args) {
        String service = null;
        String key = null;
        String forward = null;
        String events = null;
        String address = null;
        String cursorFile = null;
        String from = "latest";
        int wait = 25;
        boolean allowRemote = false;
        List<String> secrets = new ArrayList<>();
        for (int i = 1; i < args.length; i += 2) {
            if (args[i].equals("--allow-remote-forward")) {
                allowRemote = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--service" -> service = value;
                case "--key" -> key = value;
                case "--secret" -> secrets.add(value);
                case "--forward-to" -> forward = value;
                case "--events" -> events = value;
                case "--address" -> address = value;
                case "--cursor-file" -> cursorFile = value;
                case "--from" -> from = value;
                case "--wait" -> wait = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (service == null || key == null || forward == null || secrets.isEmpty()) {
            throw new IllegalArgumentException("--service, --key, --secret and --forward-to are required (--secret: the"
                    + " pull address's signing secret; each event is verified with it before it is forwarded)");
        }
        if (!from.equals("latest") && !from.equals("start")) {
            throw new IllegalArgumentException("--from is latest or start");
        }
        if (wait < 0 || wait > 30) {
            throw new IllegalArgumentException("--wait is 0 to 30 seconds");
        }
        URI serviceUri = ListenUrls.service(service);
        Path file = cursorFile != null ? Path.of(cursorFile) : Path.of(".webhook-listen-" + fingerprint(service, key));
        List<String> types = events == null ? List.of() : List.of(events.split(","));
        return new ListenOptions(serviceUri, key, List.copyOf(secrets), ListenUrls.forwardTo(forward, allowRemote), types,
                address, file, from.equals("start"), Duration.ofSeconds(wait));
    }

    /** Names the cursor file after the service and the key's first characters, never the key itself. */
    static String fingerprint(String service, String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (service + "|" + key.substring(0, Math.min(12, key.length()))).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
