package ht.platform.checkout.model;

import ht.platform.support.tenancy.OwnerRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A merchant's client application: owns keys, payment intents, refunds, links and webhook endpoints. */
@Entity
@Table(name = "applications", schema = "checkout")
public class Application extends OwnerRow {
}
