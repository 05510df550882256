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

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;
}
