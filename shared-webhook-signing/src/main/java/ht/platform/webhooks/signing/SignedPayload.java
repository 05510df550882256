package ht.platform.webhooks.signing;

import java.nio.charset.StandardCharsets;

/** Builds the exact byte string that a scheme signs. */
final class SignedPayload {
    private SignedPayload() {
    }

    static byte[] of(SignatureScheme scheme, long timestamp, String eventId, byte[] rawBody) {
        String prefix = scheme == SignatureScheme.GATEWAY
                ? timestamp + "." + eventId + "."
                : timestamp + ".";
        byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + rawBody.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(rawBody, 0, out, head.length, rawBody.length);
        return out;
    }

    /**
     * An event id is visible ASCII without '.' (the field separator of the signed string) and without ','
     * (the separator of repeated header lines), at most 255 characters.
     */
    static boolean isValidEventId(String eventId) {
        if (eventId == null || eventId.isEmpty() || eventId.length() > 255) {
            return false;
        }
        for (int i = 0; i < eventId.length(); i++) {
            char c = eventId.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '.' || c == ',') {
                return false;
            }
        }
        return true;
    }
}
