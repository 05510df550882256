package ht.platform.support.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A plain JDBC connection to the database the running test uses (DB_JDBC_URL, else the local platform_test). */
public final class TestDatabase {

    private TestDatabase() { }

    public static String jdbcUrl() {
        String url = System.getenv("DB_JDBC_URL");
        return url == null || url.isBlank() ? "jdbc:postgresql://localhost:5432/platform_test" : url;
    }

    public static Connection connect() throws SQLException {
        String user = System.getenv().getOrDefault("DB_USER", "postgres");
        String password = System.getenv().getOrDefault("DB_PASSWORD", "");
        return DriverManager.getConnection(jdbcUrl(), user, password);
    }
}
