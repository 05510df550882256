package ht.platform.support.tenancy;

import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.Configuration;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Gives a database back the V1 history row its releases validate. For a while (up to 8e3dcd6) the builds replaced
 * each service's released V1 by a shared {@value #TAKEN_OVER_SCRIPT} and rewrote the V1 history row to it (kyc also
 * recorded a {@code V1.1__kyc.sql} as applied); every earlier release then refused that database with "Migration
 * checksum mismatch for migration version 1". The released V1 is back in the service's own migrations, and before
 * Flyway validates (as migrate does first) this callback turns such a row back into the released file's (name,
 * description, checksum) and deletes the split-off rows. Nothing else: no table, no other row. On any other database
 * it does nothing. A migration or history row a release validates is never rewritten again (docs/deployment.md).
 */
public final class TenancyHistoryRepair implements Callback {

    /** The shared V1 file name the taken-over history rows carry (with or without a {@code db/tenancy/} location). */
    static final String TAKEN_OVER_SCRIPT = "V1__tenancy.sql";
    /** Flyway's checksum of that file as those builds shipped it. */
    static final int TAKEN_OVER_CHECKSUM = -915447575;

    private final String releasedScript;
    private final List<String> splitOff;

    /**
     * @param releasedScript the service's released V1 file name ({@code V1__kyc.sql}), in its Flyway locations
     * @param splitOff       the file names the take-over recorded as applied beyond V1 ({@code V1.1__kyc.sql})
     */
    public TenancyHistoryRepair(String releasedScript, List<String> splitOff) {
        this.releasedScript = releasedScript;
        this.splitOff = List.copyOf(splitOff);
    }

    @Override
    public boolean supports(Event event, Context context) {
        // migrate validates first; a callback before migrate would take a connection of its own, beyond the pool's two
        return event == Event.BEFORE_VALIDATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public String getCallbackName() {
        return "TenancyHistoryRepair";
    }

    @Override
    public void handle(Event event, Context context) {
        Configuration config = context.getConfiguration();
        String history = config.getDefaultSchema() + "." + config.getTable();
        try {
            repair(context.getConnection(), config, history);
        } catch (SQLException e) {
            throw new IllegalStateException("giving V1 back its released " + releasedScript + " failed", e);
        }
    }

    private void repair(Connection c, Configuration config, String history) throws SQLException {
        try (PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL");
             var r = query(exists, history)) {
            if (!r.next() || !r.getBoolean(1)) {
                return;
            }
        }
        String located = find(config, releasedScript);
        try (PreparedStatement back = c.prepareStatement("UPDATE " + history + " SET description = ?,"
                // Quarkus records a script with its classpath location (db/tenancy/V1__tenancy.sql), plain Flyway without
                + " script = CASE WHEN script LIKE '%/%' THEN ? ELSE ? END, checksum = ?"
                + " WHERE version = '1' AND checksum = ? AND (script = ? OR script LIKE ?)")) {
            back.setString(1, description(releasedScript));
            back.setString(2, located);
            back.setString(3, releasedScript);
            back.setInt(4, checksum(config, located));
            back.setInt(5, TAKEN_OVER_CHECKSUM);
            back.setString(6, TAKEN_OVER_SCRIPT);
            back.setString(7, "%/" + TAKEN_OVER_SCRIPT);
            if (back.executeUpdate() == 0) {
                return;
            }
        }
        for (String file : splitOff) {
            try (PreparedStatement gone = c.prepareStatement("DELETE FROM " + history
                    + " WHERE version = ? AND (script = ? OR script LIKE ?)")) {
                gone.setString(1, file.substring(1, file.indexOf("__")));
                gone.setString(2, file);
                gone.setString(3, "%/" + file);
                gone.executeUpdate();
            }
        }
    }

    private static java.sql.ResultSet query(PreparedStatement statement, String value) throws SQLException {
        statement.setString(1, value);
        return statement.executeQuery();
    }

    /** Flyway's description of a versioned migration file: the words after {@code __}, underscores as spaces. */
    static String description(String file) {
        return file.substring(file.indexOf("__") + 2, file.length() - ".sql".length()).replace('_', ' ');
    }

    /** {@code file}'s script name in the first classpath location holding it. */
    private static String find(Configuration config, String file) {
        for (Location location : config.getLocations()) {
            String script = location.getPath().isEmpty() ? file : location.getPath() + "/" + file;
            if (location.isClassPath() && config.getClassLoader().getResource(script) != null) {
                return script;
            }
        }
        throw new IllegalStateException(file + " is in none of the Flyway locations");
    }

    /** Flyway's checksum of a versioned SQL migration: CRC-32 of its lines without their line ends, as UTF-8. */
    static int checksum(Configuration config, String script) {
        try (InputStream in = config.getClassLoader().getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalStateException(script + " is not on the class path");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            CRC32 crc = new CRC32();
            boolean first = true;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                crc.update((first && line.startsWith("\uFEFF") ? line.substring(1) : line).getBytes(StandardCharsets.UTF_8));
                first = false;
            }
            return (int) crc.getValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
