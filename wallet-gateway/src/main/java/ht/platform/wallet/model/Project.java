package ht.platform.wallet.model;

import ht.platform.support.tenancy.OwnerRow;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A merchant's project: owns keys, payments, withdrawals, balance and webhook addresses. */
@Entity
@Table(name = "projects", schema = "wallet")
public class Project extends OwnerRow {
}
