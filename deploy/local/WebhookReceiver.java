import com.sun.net.httpserver.HttpServer;
import ht.platform.webhooks.signing.SignatureScheme;
import ht.platform.webhooks.signing.VerificationResult;
import ht.platform.webhooks.signing.WebhookVerifier;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A demo webhook receiver that verifies every delivery with shared-webhook-signing.
 * java -cp shared-webhook-signing/target/classes deploy/local/WebhookReceiver.java GATEWAY whsec_... 9000 [bind address]
 * (the bind address defaults to 127.0.0.1; containers on a bridge network reach the host on one of its own addresses)
 */
public class WebhookReceiver {
    public static void main(String[] args) throws Exception {
        SignatureScheme scheme = SignatureScheme.valueOf(args[0]);
        WebhookVerifier verifier = new WebhookVerifier(scheme, List.of(args[1]));
        int port = args.length > 2 ? Integer.parseInt(args[2]) : 9000;
        // Without TCP_NODELAY the JDK server holds the response body until the sender's delayed ACK (~40 ms): every
        // delivery would wait for it, and one-at-a-time delivery lanes would measure that wait instead of the sender.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        String host = args.length > 3 ? args[3] : "127.0.0.1";
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            VerificationResult result = verifier.verify(exchange.getRequestHeaders()::getFirst, body);
            System.out.println((result.valid() ? "VERIFIED " : "REJECTED (" + result.failure() + ") ")
                    + new String(body, StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(result.valid() ? 200 : 400, -1);
            exchange.close();
        });
        server.start();
        System.out.println("listening on http://" + host + ":" + port + "/ for " + scheme + " deliveries");
    }
}
