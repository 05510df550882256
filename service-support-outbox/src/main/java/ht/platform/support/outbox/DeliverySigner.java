package ht.platform.support.outbox;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import ht.platform.support.crypto.SecretBox;
import ht.platform.webhooks.signing.WebhookSigner;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The headers a delivery of an event carries, signed at {@code now} over the stored body byte for byte with the
 * destination's secret (and its previous one during a rotation): the same for a push delivery and the feed.
 */
@ApplicationScoped
public class DeliverySigner {

    /** Signing secrets opened before, by their sealed text: opening is an AES-GCM decryption per delivery otherwise. */
    private final Cache<String, String> opened = Caffeine.newBuilder().maximumSize(4096).build();

    private final SecretBox secretBox;
    private final WebhookSettings settings;

    @Inject
    public DeliverySigner(SecretBox secretBox, WebhookSettings settings) {
        this.secretBox = secretBox;
        this.settings = settings;
    }

    public Map<String, String> headers(DeliveryPolicy policy, ClaimedDelivery d, Instant now) {
        List<String> secrets = new ArrayList<>(2);
        secrets.add(open(d.secret(), d.secretBoundTo()));
        if (d.previousSecret() != null && d.previousSecretExpiresAt() != null && d.previousSecretExpiresAt().isAfter(now)) {
            secrets.add(open(d.previousSecret(), d.secretBoundTo()));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", settings.userAgent());
        headers.putAll(policy.headers(d));
        headers.putAll(WebhookSigner.sign(policy.scheme(), secrets, now.getEpochSecond(), d.eventId(), d.body()));
        return headers;
    }

    private String open(String sealed, String boundTo) {
        if (sealed == null) {
            throw new UnsignableDelivery("the destination has no signing secret");
        }
        String key = boundTo + ' ' + sealed; // the same sealed text bound elsewhere must not open from the cache
        return opened.get(key, k -> {
            try {
                return secretBox.openText(sealed, boundTo);
            } catch (RuntimeException e) {
                throw new UnsignableDelivery("the signing secret cannot be decrypted with the configured encryption keys");
            }
        });
    }

    /** A delivery that cannot be signed as it stands (no secret, or one no configured key opens). */
    public static final class UnsignableDelivery extends RuntimeException {
        UnsignableDelivery(String message) {
            super(message, null, false, false);
        }
    }
}
