package ht.platform.support.feed;

import ht.platform.support.errors.ApiException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The feed's opaque cursor: a position in the service's feed. It is the same on every replica and after a restart,
 * since positions are stored with the events.
 */
public final class FeedCursor {

    private static final String PREFIX = "cur_";
    private static final String VERSION = "f1.";

    private FeedCursor() {
    }

    public static String of(long position) {
        return PREFIX + Base64.getUrlEncoder().withoutPadding()
                .encodeToString((VERSION + position).getBytes(StandardCharsets.US_ASCII));
    }

    /** The position after which a cursor resumes; 400 for anything this service did not hand out. */
    public static long position(String cursor) {
        try {
            if (cursor.startsWith(PREFIX) && cursor.length() <= 40) {
                String text = new String(Base64.getUrlDecoder().decode(cursor.substring(PREFIX.length())),
                        StandardCharsets.US_ASCII);
                if (text.startsWith(VERSION)) {
                    long position = Long.parseLong(text.substring(VERSION.length()));
                    if (position >= 0) {
                        return position;
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            // falls through to the one answer for a cursor that is not ours
        }
        throw ApiException.invalid("after", "Unknown cursor: pass a cursor this feed returned, 'start' or 'latest'");
    }
}
