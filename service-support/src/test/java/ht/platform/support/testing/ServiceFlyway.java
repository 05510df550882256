package ht.platform.support.testing;

import ht.platform.support.tenancy.TenancyMigrationSettings;
import ht.platform.support.tenancy.TenancyMigrations;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service's Flyway as Quarkus configures it (datasource "migrations"), outside Quarkus: its locations,
 * placeholders and the repair of a V1 history row the takeover builds rewrote, read from the plain values
 * of its configuration on the class path (META-INF/microprofile-config.properties, then application.properties).
 */
public final class ServiceFlyway {

    private static final String FLYWAY = "quarkus.flyway.migrations.";
    private static final String TENANCY = "platform.tenancy.released-v1.";
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}:]+)(?::([^}]*))?}");

    private ServiceFlyway() { }

    public static FluentConfiguration configure(String url, String user, String password) {
        Properties p = properties();
        String schema = resolve(p, FLYWAY + "default-schema");
        Map<String, String> placeholders = new TreeMap<>();
        p.stringPropertyNames().stream().filter(k -> k.startsWith(FLYWAY + "placeholders."))
                .forEach(k -> placeholders.put(k.substring((FLYWAY + "placeholders.").length()), p.getProperty(k)));
        FluentConfiguration flyway = Flyway.configure().dataSource(url, user, password).schemas(schema).defaultSchema(schema)
                .createSchemas(true).placeholders(placeholders)
                .locations(locations().stream().map(l -> "classpath:" + l).toArray(String[]::new));
        return TenancyMigrations.repairing(flyway, new TenancyMigrationSettings() {
            @Override
            public Optional<String> script() {
                return Optional.ofNullable(p.getProperty(TENANCY + "script"));
            }

            @Override
            public Optional<List<String>> takenOverSplitOff() {
                return Optional.ofNullable(p.getProperty(TENANCY + "taken-over-split-off")).map(v -> List.of(v.split(",")));
            }
        });
    }

    /** The service's Flyway locations, e.g. db/migration, db/dashboard, db/outbox. */
    public static List<String> locations() {
        return Arrays.stream(properties().getProperty(FLYWAY + "locations").split(",")).map(String::strip).toList();
    }

    /** A value of the service's configuration without profile; an expression ${key} or ${key:default} is resolved. */
    public static String property(String key) {
        return resolve(properties(), key);
    }

    private static String resolve(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            return null;
        }
        Matcher m = EXPRESSION.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String resolved = resolve(p, m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(resolved != null ? resolved : m.group(2) == null ? "" : m.group(2)));
        }
        return m.appendTail(out).toString();
    }

    private static Properties properties() {
        Properties p = new Properties();
        try {
            ClassLoader loader = ServiceFlyway.class.getClassLoader();
            for (URL url : Collections.list(loader.getResources("META-INF/microprofile-config.properties"))) {
                load(p, url);
            }
            load(p, loader.getResource("application.properties"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    private static void load(Properties p, URL url) throws IOException {
        if (url != null) {
            try (InputStream in = url.openStream()) {
                p.load(in);
            }
        }
    }
}
