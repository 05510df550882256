package ht.platform.support.feed;

import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The feed's opaque cursor: a position in the service's feed, sealed with the service's encryption key and
 * bound to the owner and mode it was handed to. Positions are one sequence per service, so a readable one would tell
 * a merchant how many events every other merchant had meanwhile; a sealed one tells nothing, cannot be forged, and is
 * refused on another owner's or mode's feed. A position always gives the same cursor ({@link SecretBox#sealStable}),
 * on every replica and after a restart (the key is shared, positions are stored with the events); after a key
 * rotation the cursors handed out before still open while the old key is configured.
 */
@ApplicationScoped
public class FeedCursor {

    private static final String PREFIX = "cur_";
    /**
     * Cursors handed out before they were sealed: a readable position. Refused, since a binary search over them told a
     * tenant how many events everyone else had between two of its own.
     */
    private static final String READABLE = "f1.";
    private static final String UNKNOWN = "Unknown cursor: pass a cursor this feed returned to this account and mode,"
            + " 'start' or 'latest'";
    private static final String NO_LONGER_ACCEPTED = "This cursor is of the old readable form, no longer accepted: read"
            + " again with after=latest (from now on) or after=start (the oldest kept event) and go on from the"
            + " next_cursor of that answer";

    private final SecretBox box;

    @Inject
    public FeedCursor(SecretBox box) {
        this.box = box;
    }

    public String of(String owner, String mode, long position) {
        byte[] sealed = box.sealStable(ByteBuffer.allocate(Long.BYTES).putLong(position).array(), bound(owner, mode));
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
    }

    /** The position after which a cursor resumes; 400 for anything not handed to this owner and mode. */
    public long position(String owner, String mode, String cursor) {
        if (cursor.startsWith(PREFIX) && cursor.length() <= 120) {
            byte[] raw;
            try {
                raw = Base64.getUrlDecoder().decode(cursor.substring(PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw unknown();
            }
            String text = new String(raw, StandardCharsets.ISO_8859_1);
            if (text.startsWith(READABLE)) {
                throw ApiException.invalid("after", NO_LONGER_ACCEPTED);
            }
            try {
                byte[] plain = box.open(raw, bound(owner, mode));
                if (plain.length == Long.BYTES) {
                    long position = ByteBuffer.wrap(plain).getLong();
                    if (position >= 0) {
                        return position;
                    }
                }
            } catch (IllegalStateException e) {
                // not sealed for this owner and mode with a configured key
            }
        }
        throw unknown();
    }

    private static byte[] bound(String owner, String mode) {
        return ("feed-cursor|" + owner + "|" + mode).getBytes(StandardCharsets.UTF_8);
    }

    private static ApiException unknown() {
        return ApiException.invalid("after", UNKNOWN);
    }
}
