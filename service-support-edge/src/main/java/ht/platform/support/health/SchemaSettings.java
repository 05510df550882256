package ht.platform.support.health;

import io.smallrye.config.ConfigMapping;

/** The service's own Postgres schema and the newest versioned migration its build ships. */
@ConfigMapping(prefix = "platform.schema")
public interface SchemaSettings {

    /** kyc, checkout or wallet: where the service's tables and its Flyway history live. */
    String name();

    /** The version of the newest {@code V<version>__*.sql} among the service's Flyway locations, e.g. 52. */
    String version();
}
