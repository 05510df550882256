package ht.platform.support.tenancy;

import io.smallrye.config.ConfigMapping;

import java.util.List;
import java.util.Optional;

/** The service's released V1, whose history row {@link TenancyHistoryRepair} gives back to a taken-over database. */
@ConfigMapping(prefix = "platform.tenancy.released-v1")
public interface TenancyMigrationSettings {

    /** Its file name in the service's migrations, e.g. {@code V1__kyc.sql}; unset: nothing to repair. */
    Optional<String> script();

    /** Migrations the take-over recorded as applied beyond V1 (file names, e.g. {@code V1.1__kyc.sql}). */
    Optional<List<String>> takenOverSplitOff();
}
