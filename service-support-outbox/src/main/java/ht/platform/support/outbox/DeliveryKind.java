package ht.platform.support.outbox;

import ht.platform.support.errors.ApiException;

/**
 * How a webhook address receives its events: pushed to its URL (retried, paused by the service's rules), or pulled
 * from the event feed (no URL, no retries, no pause: its events wait on the feed, read with its secret's signatures).
 */
public enum DeliveryKind {
    PUSH("push"),
    PULL("pull");

    private final String word;

    DeliveryKind(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    /** {@code delivery} of a request (absent: push); 400 naming the parameter for anything else. */
    public static DeliveryKind of(String text) {
        if (text == null) {
            return PUSH;
        }
        for (DeliveryKind kind : values()) {
            if (kind.word.equals(text)) {
                return kind;
            }
        }
        throw ApiException.invalid("delivery", "delivery must be 'push' (to the url) or 'pull' (on the event feed)");
    }

    /** The url a request gives for this kind: required for push, refused for pull. */
    public void checkUrlPresence(String url) {
        if (this == PUSH && url == null) {
            throw ApiException.invalid("url", "url is required");
        }
        if (this == PULL && url != null) {
            throw ApiException.invalid("url", "A pull address has no url: its events stay on the event feed");
        }
    }
}
