package ht.platform.support.tenancy;

import io.quarkus.flyway.FlywayConfigurationCustomizer;
import io.quarkus.flyway.FlywayDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import java.util.Arrays;
import java.util.List;

/** The services' Flyway (datasource "migrations") takes a database of before the shared tenancy migration over. */
@ApplicationScoped
@FlywayDataSource("migrations")
public class TenancyMigrations implements FlywayConfigurationCustomizer {

    @Inject
    TenancyMigrationSettings settings;

    @Override
    public void customize(FluentConfiguration configuration) {
        upgrading(configuration, settings);
    }

    /** Adds {@link TenancyUpgrade} to {@code configuration} when the service names a former V1. */
    public static FluentConfiguration upgrading(FluentConfiguration configuration, TenancyMigrationSettings settings) {
        if (settings.script().isEmpty()) {
            return configuration;
        }
        List<Callback> callbacks = new java.util.ArrayList<>(Arrays.asList(configuration.getCallbacks()));
        callbacks.add(new TenancyUpgrade(settings.script().get(),
                settings.checksum().orElseThrow(() -> new IllegalStateException("platform.tenancy.replaces.checksum is required")),
                settings.splitOff().orElse(List.of())));
        return configuration.callbacks(callbacks.toArray(Callback[]::new));
    }
}
