package ht.platform.kyc.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** An application's secret key, stored only as its SHA-256 hash. */
@Entity
@Table(name = "api_keys", schema = "kyc")
public class ApiKey extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "application_id", nullable = false)
    public String applicationId;

    @Column(name = "key_hash", nullable = false)
    public String keyHash;

    @Column(name = "key_hint", nullable = false)
    public String keyHint;

    @Column(nullable = false)
    public String mode;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] scopes;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;
}
