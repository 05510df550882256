package ht.platform.support.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A plain JDBC connection to the database the running tests use, the one {@link PlatformTestEnvironment} chose. */
public final class TestDatabase {

    static final String URL_PROPERTY = "platform.test.jdbc-url";
    static final String USER_PROPERTY = "platform.test.db-user";
    static final String PASSWORD_PROPERTY = "platform.test.db-password";

    private TestDatabase() { }

    public static String jdbcUrl() {
        if (System.getProperty(URL_PROPERTY) == null) {
            PlatformTestEnvironment.choose();
        }
        return System.getProperty(URL_PROPERTY);
    }

    public static Connection connect() throws SQLException {
        String url = jdbcUrl();
        return DriverManager.getConnection(url, System.getProperty(USER_PROPERTY), System.getProperty(PASSWORD_PROPERTY));
    }
}
