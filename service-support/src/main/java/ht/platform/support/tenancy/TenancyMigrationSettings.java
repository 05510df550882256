package ht.platform.support.tenancy;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The service's former V1 that held its tenancy tables, which {@link TenancyUpgrade} takes over in an existing database. */
@ConfigMapping(prefix = "platform.tenancy.replaces")
public interface TenancyMigrationSettings {

    /** Its file name, e.g. {@code V1__kyc.sql}; unset: nothing to take over. */
    Optional<String> script();

    /** Its checksum in the history: only that file, unchanged, is taken over. */
    Optional<Integer> checksum();

    /** Migrations split off from it (file names, e.g. {@code V1.1__kyc.sql}). */
    Optional<List<String>> splitOff();
}
