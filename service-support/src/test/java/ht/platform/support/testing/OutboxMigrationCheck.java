package ht.platform.support.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A service's migrations run the way an existing installation meets them: a database of its own, migrated up to
 * an earlier version, filled with rows under that schema, then migrated to the latest version. Answers a connection
 * to it, for the test to check that nothing was lost.
 */
public final class OutboxMigrationCheck {

    private OutboxMigrationCheck() { }

    /**
     * @param schema  the service's schema
     * @param before  the last version before the one under test
     * @param fillSql rows as an installation at {@code before} holds them
     */
    public static Connection filledThenMigrated(String schema, String before, String fillSql) throws SQLException {
        String database = "platform_migration_" + schema;
        try (Connection admin = TestDatabase.connect(); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
        }
        String url = withDatabase(TestDatabase.jdbcUrl(), database);
        String user = System.getProperty(TestDatabase.USER_PROPERTY);
        String password = System.getProperty(TestDatabase.PASSWORD_PROPERTY);
        ServiceFlyway.configure(url, user, password).target(before).load().migrate();
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute(fillSql);
        }
        ServiceFlyway.configure(url, user, password).load().migrate();
        return DriverManager.getConnection(url, user, password);
    }

    /** The rows of a query as "a|b|c" (PostgreSQL's text of each value, times in UTC). */
    public static List<String> rows(Connection c, String sql) throws SQLException {
        try (Statement zone = c.createStatement()) {
            zone.execute("SET TIME ZONE 'UTC'");
        }
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(i > 1 ? "|" : "").append(r.getString(i));
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    static String withDatabase(String jdbcUrl, String database) {
        int slash = jdbcUrl.indexOf('/', "jdbc:postgresql://".length());
        int query = jdbcUrl.indexOf('?');
        return jdbcUrl.substring(0, slash) + "/" + database + (query < 0 ? "" : jdbcUrl.substring(query));
    }
}
