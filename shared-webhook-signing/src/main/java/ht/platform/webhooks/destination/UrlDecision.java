package ht.platform.webhooks.destination;

import java.net.URI;
import java.util.Objects;

/**
 * Outcome of {@link OutgoingUrlPolicy#checkUrl}.
 *
 * @param allowed whether the URL may be registered
 * @param reason  why it was refused, in words fit for an API error message; null when allowed
 * @param uri     the parsed URL when allowed, otherwise null
 */
public record UrlDecision(boolean allowed, String reason, URI uri) {

    public UrlDecision {
        if (allowed ? uri == null || reason != null : reason == null) {
            throw new IllegalArgumentException("an allowed decision has a URI, a refusal a reason");
        }
    }

    public static UrlDecision allow(URI uri) {
        return new UrlDecision(true, null, Objects.requireNonNull(uri, "uri"));
    }

    public static UrlDecision refuse(String reason) {
        return new UrlDecision(false, Objects.requireNonNull(reason, "reason"), null);
    }
}
