package ht.platform.support.tenancy;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;

/** The columns every tenant (owner of keys) has, whatever the service calls it; its entity adds the table. */
@MappedSuperclass
public abstract class OwnerRow extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
