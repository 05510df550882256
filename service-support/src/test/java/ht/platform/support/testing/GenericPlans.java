package ht.platform.support.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a prepared statement costs once the plan the pool's connection cached was made with statistics older than most
 * of the table's rows: the case of a table that grew fast after its last ANALYZE (a new deployment, a benchmark).
 */
public final class GenericPlans {

    private GenericPlans() { }

    /** The primary key's name in the copy {@link #scansOfOneOwnedRead} plans on. */
    static final String COPY_KEY = "plan_probe_pkey";

    /**
     * How the generic plan of {@code statement} (whose parameters are the id, then the owner and the mode when it
     * names them) reaches the row when it reads one object of an owner with 5,000 objects, on a copy of {@code table}
     * (its indexes, not its rows) whose statistics were taken at three objects of three owners: for each scan of the
     * copy, the index it walks ({@code "Seq Scan"} for none) and the pages it touched.
     */
    public static List<String> scansOfOneOwnedRead(String statement, String table, String ownerColumn) throws SQLException {
        String copy = "pg_temp.plan_probe";
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE plan_probe (LIKE " + table + " INCLUDING INDEXES)");
            for (String column : notNullOutsideKey(s, copy)) {
                s.execute("ALTER TABLE " + copy + " ALTER COLUMN " + column + " DROP NOT NULL");
            }
            String insert = "INSERT INTO " + copy + " (id, " + ownerColumn + ", mode) SELECT 'obj_' || g, %s, 'test'"
                    + " FROM generate_series(%d, %d) g";
            s.execute(String.format(insert, "'owner_' || g", 1, 3));
            s.execute("ANALYZE " + copy);
            s.execute(String.format(insert, "'owner_1'", 4, 5003));
            String args = statement.contains("$3") ? "('obj_2000', 'owner_1', 'test')" : "('obj_2000')";
            List<String> scans = new ArrayList<>();
            for (JsonObject scan : scansOf(executedGenericPlan(c, statement.replace(table, copy), args), "plan_probe")) {
                long pages = scan.getLong("Local Hit Blocks", 0L) + scan.getLong("Local Read Blocks", 0L);
                scans.add(scan.getString("Index Name", "Seq Scan") + " (" + pages + " pages)");
            }
            return scans;
        }
    }

    /**
     * The plan {@code statement} is executed with when the connection caches a generic plan, run with
     * {@code arguments} (a parenthesized list of literals) in a transaction that is rolled back.
     */
    public static JsonObject executedGenericPlan(Connection c, String statement, String arguments) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL plan_cache_mode = force_generic_plan");
            s.execute("PREPARE generic_probe AS " + statement);
            try (ResultSet plan = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE generic_probe " + arguments)) {
                plan.next();
                return new JsonArray(plan.getString(1)).getJsonObject(0).getJsonObject("Plan");
            }
        } finally {
            c.rollback();
            c.setAutoCommit(autoCommit);
            try (Statement s = c.createStatement()) {
                s.execute("DEALLOCATE generic_probe");
            }
        }
    }

    /** Fails unless the read of one owned object ({@link #scansOfOneOwnedRead}) is one walk of the primary key. */
    public static void assertOneOwnedReadWalksThePrimaryKey(String statement, String table, String ownerColumn)
            throws SQLException {
        List<String> scans = scansOfOneOwnedRead(statement, table, ownerColumn);
        if (scans.size() != 1 || !scans.get(0).startsWith(COPY_KEY + " ")) {
            throw new AssertionError("the read of one object of " + table + " walked " + scans + ", not only "
                    + COPY_KEY + ": " + statement);
        }
    }

    /** Rows the plan's scans of {@code table} returned, over all their loops. */
    public static long rowsRead(JsonObject plan, String table) {
        return scansOf(plan, table).stream()
                .mapToLong(scan -> scan.getLong("Actual Rows", 0L) * scan.getLong("Actual Loops", 1L)).sum();
    }

    /** The plan's nodes that scan {@code table}. */
    private static List<JsonObject> scansOf(JsonObject node, String table) {
        List<JsonObject> scans = new ArrayList<>();
        if (table.equals(node.getString("Relation Name"))) {
            scans.add(node);
        }
        JsonArray children = node.getJsonArray("Plans");
        for (int i = 0; children != null && i < children.size(); i++) {
            scans.addAll(scansOf(children.getJsonObject(i), table));
        }
        return scans;
    }

    private static List<String> notNullOutsideKey(Statement s, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SELECT quote_ident(attname) FROM pg_attribute WHERE attrelid = '" + table
                + "'::regclass AND attnum > 0 AND NOT attisdropped AND attnotnull AND attname <> 'id'")) {
            while (r.next()) {
                columns.add(r.getString(1));
            }
        }
        return columns;
    }
}
