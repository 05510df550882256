package ht.platform.support.tenancy;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import io.quarkus.flyway.FlywayDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import java.util.Arrays;
import java.util.List;

/** The services' Flyway (datasource "migrations") gives a database the takeover builds migrated its released V1 row back. */
@ApplicationScoped
@FlywayDataSource("migrations")
public class TenancyMigrations implements FlywayConfigurationCustomizer {

    @Inject
    TenancyMigrationSettings settings;

    @Override
    public void customize(FluentConfiguration configuration) {
        repairing(configuration, settings);
    }

    /** Adds {@link TenancyHistoryRepair} to {@code configuration} when the service names its released V1. */
    public static FluentConfiguration repairing(FluentConfiguration configuration, TenancyMigrationSettings settings) {
        if (settings.script().isEmpty()) {
            return configuration;
        }
        List<Callback> callbacks = new java.util.ArrayList<>(Arrays.asList(configuration.getCallbacks()));
        callbacks.add(new TenancyHistoryRepair(settings.script().get(), settings.takenOverSplitOff().orElse(List.of())));
        return configuration.callbacks(callbacks.toArray(Callback[]::new));
    }
}
