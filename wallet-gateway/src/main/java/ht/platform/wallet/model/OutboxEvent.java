package ht.platform.wallet.model;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** An event as written in the transaction of its cause: the exact body every delivery attempt sends. */
@Entity
@Table(name = "events", schema = "wallet")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    public String id;
    @Column(name = "project_id", nullable = false)
    public String projectId;
    @Column(nullable = false)
    public String mode;
    @Column(nullable = false)
    public String type;
    @Column(name = "object_id")
    public String objectId;
    @Column(nullable = false)
    public byte[] body;
    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
