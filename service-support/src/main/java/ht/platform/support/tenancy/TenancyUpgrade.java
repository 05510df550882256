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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Takes a database over whose V1 was the service's own file with the tenancy tables (and, in kyc, more) to the shared
 * {@value #SCRIPT}: before Flyway validates (as it does first when it migrates), the history row of that V1, if its
 * file name and checksum are the released file's, becomes the shared migration's, and each migration split off from
 * it (kyc's V1.1) is recorded as applied, since the old V1 created what it creates. No table is touched.
 */
public final class TenancyUpgrade implements Callback {

    /** Where the shared migration is, as Flyway records a script (relative to its classpath location). */
    public static final String SCRIPT = "db/tenancy/V1__tenancy.sql";

    private final String replacedScript;
    private final int replacedChecksum;
    private final List<String> splitOff;

    /**
     * @param replacedScript   the file name of the service's former V1 ({@code V1__kyc.sql})
     * @param replacedChecksum its checksum as Flyway recorded it
     * @param splitOff         migrations (file names in the service's locations) the former V1 held beyond the tenancy tables
     */
    public TenancyUpgrade(String replacedScript, int replacedChecksum, List<String> splitOff) {
        this.replacedScript = replacedScript;
        this.replacedChecksum = replacedChecksum;
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
        return "TenancyUpgrade";
    }

    @Override
    public void handle(Event event, Context context) {
        Configuration config = context.getConfiguration();
        String history = config.getDefaultSchema() + "." + config.getTable();
        try {
            upgrade(context.getConnection(), config, history);
        } catch (SQLException e) {
            throw new IllegalStateException("taking " + replacedScript + " over to " + SCRIPT + " failed", e);
        }
    }

    private void upgrade(Connection c, Configuration config, String history) throws SQLException {
        try (PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            exists.setString(1, history);
            try (ResultSet r = exists.executeQuery()) {
                if (!r.next() || !r.getBoolean(1)) {
                    return;
                }
            }
        }
        String recorded = null;
        try (PreparedStatement former = c.prepareStatement("SELECT script FROM " + history + " WHERE version = '1' AND success"
                + " AND checksum = ? AND (script = ? OR script LIKE ?)")) {
            former.setInt(1, replacedChecksum);
            former.setString(2, replacedScript);
            former.setString(3, "%/" + replacedScript);
            try (ResultSet r = former.executeQuery()) {
                if (r.next()) {
                    recorded = r.getString(1);
                }
            }
        }
        if (recorded == null) {
            return;
        }
        // Quarkus records a script with its classpath location (db/migration/V1__kyc.sql), plain Flyway without
        boolean located = recorded.contains("/");
        try (PreparedStatement taken = c.prepareStatement("UPDATE " + history + " SET description = 'tenancy', script = ?,"
                + " checksum = ? WHERE version = '1'")) {
            taken.setString(1, located ? SCRIPT : SCRIPT.substring(SCRIPT.lastIndexOf('/') + 1));
            taken.setInt(2, checksum(config, SCRIPT));
            taken.executeUpdate();
        }
        int rank = 1;
        for (String file : splitOff) {
            String script = find(config, file);
            String name = file.substring(1, file.length() - ".sql".length());
            String version = name.substring(0, name.indexOf("__"));
            // the split-off migration follows V1 in the history, as it follows it in a new database
            try (PreparedStatement make = c.prepareStatement("UPDATE " + history + " SET installed_rank = -installed_rank - 1"
                    + " WHERE installed_rank > (SELECT installed_rank FROM " + history + " WHERE version = '1') + ?");
                 PreparedStatement room = c.prepareStatement("UPDATE " + history + " SET installed_rank = -installed_rank"
                         + " WHERE installed_rank < 0");
                 PreparedStatement applied = c.prepareStatement("INSERT INTO " + history + " (installed_rank, version,"
                         + " description, type, script, checksum, installed_by, installed_on, execution_time, success)"
                         + " SELECT installed_rank + ?, ?, ?, 'SQL', ?, ?, installed_by, installed_on, 0, true FROM " + history
                         + " WHERE version = '1'")) {
                make.setInt(1, rank - 1);
                make.executeUpdate();
                room.executeUpdate();
                applied.setInt(1, rank);
                applied.setString(2, version);
                applied.setString(3, name.substring(name.indexOf("__") + 2).replace('_', ' '));
                applied.setString(4, located ? script : file);
                applied.setInt(5, checksum(config, script));
                applied.executeUpdate();
            }
            rank++;
        }
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
