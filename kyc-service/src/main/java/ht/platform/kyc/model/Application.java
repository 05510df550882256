package ht.platform.kyc.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** A client application: owns keys, verifications, subjects, its return URLs and its webhook address. */
@Entity
@Table(name = "applications", schema = "kyc")
public class Application extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "return_urls", nullable = false)
    public String[] returnUrls;

    @Column(name = "webhook_url")
    public String webhookUrl;

    /** whsec_… sealed with SecretBox, bound to the application id. */
    @Column(name = "webhook_secret_sealed", nullable = false)
    public String webhookSecretSealed;

    @Column(name = "previous_secret_sealed")
    public String previousSecretSealed;

    @Column(name = "previous_secret_expires_at")
    public Instant previousSecretExpiresAt;

    /** Test events go here, never to {@link #webhookUrl}; without it they are recorded but not sent. */
    @Column(name = "test_webhook_url")
    public String testWebhookUrl;

    /** Signs test events only; sealed bound to the application id and the mode. Null for an application made before modes were apart. */
    @Column(name = "test_webhook_secret_sealed")
    public String testWebhookSecretSealed;

    @Column(name = "test_previous_secret_sealed")
    public String testPreviousSecretSealed;

    @Column(name = "test_previous_secret_expires_at")
    public Instant testPreviousSecretExpiresAt;

    /** Signs the live event feed (never the push secret a receiver trusts); sealed like the live secret. Null: no feed. */
    @Column(name = "feed_secret_sealed")
    public String feedSecretSealed;

    /** Signs the test event feed; sealed like the test secret. Null: no feed. */
    @Column(name = "test_feed_secret_sealed")
    public String testFeedSecretSealed;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    /** The webhook address of events of {@code mode} (test or live), or null. */
    public String webhookUrl(String mode) {
        return "test".equals(mode) ? testWebhookUrl : webhookUrl;
    }
}
