package ht.platform.kyc.model;

import ht.platform.support.outbox.Address;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** A client application: owns keys, verifications, subjects, its return URLs and its two webhook addresses. */
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

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    /** Its webhook address of each mode (the outbox's destinations), when read with it; never its secrets. */
    @Transient
    public Address live;

    @Transient
    public Address test;

    /** The webhook address of {@code mode} (test or live). */
    public Address address(String mode) {
        return "test".equals(mode) ? test : live;
    }

    /** The URL events of {@code mode} are pushed to, or null (pulled from the feed). */
    public String webhookUrl(String mode) {
        Address a = address(mode);
        return a == null ? null : a.url();
    }
}
