package ht.platform.support.sql;

import ht.platform.support.errors.ApiException;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reading rows of the plain reactive client, for the hot read-by-id paths that skip the ORM session (the
 * benchmarks measured the session, not the query, as most of a read's cost) and for the scheduled sweeps, which
 * select in SQL so that a pod that only creates and reads objects never loads Hibernate's HQL parser.
 */
public final class Rows {

    private Rows() { }

    /** The only row mapped, or 404 NOT_FOUND naming {@code what} when there is none. */
    public static <T> T single(RowSet<Row> rows, Function<Row, T> mapper, String what) {
        return single(rows, mapper, () -> ApiException.notFound(what));
    }

    /** The only row mapped, or the service's own "not found" when there is none. */
    public static <T> T single(RowSet<Row> rows, Function<Row, T> mapper, Supplier<? extends RuntimeException> missing) {
        var it = rows.iterator();
        if (!it.hasNext()) {
            throw missing.get();
        }
        return mapper.apply(it.next());
    }

    /**
     * The only row, mapped, when it belongs to {@code ownerId} in {@code mode}; else the service's own "not found", as
     * for an id that does not exist. An owned object is selected by its primary key alone and its owner compared here:
     * with the owner in the WHERE clause, a plan made while the table's statistics were older than most of its rows
     * walked the owner's list index (every object of the owner, on every read) instead of the key.
     */
    public static <T> T owned(RowSet<Row> rows, String ownerColumn, String ownerId, String mode, Function<Row, T> mapper,
                              Supplier<? extends RuntimeException> missing) {
        var it = rows.iterator();
        Row row = it.hasNext() ? it.next() : null;
        if (row == null || !isOwners(row.getString(ownerColumn), row.getString("mode"), ownerId, mode)) {
            throw missing.get();
        }
        return mapper.apply(row);
    }

    /** Whether an object whose owner and mode are these is {@code ownerId}'s in {@code mode}. */
    public static boolean isOwners(String objectOwner, String objectMode, String ownerId, String mode) {
        return ownerId.equals(objectOwner) && mode.equals(objectMode);
    }

    /** One text column of every row, in the rows' order. */
    public static List<String> strings(RowSet<Row> rows, String column) {
        List<String> values = new ArrayList<>(rows.size());
        rows.forEach(row -> values.add(row.getString(column)));
        return values;
    }

    /** A {@code timestamptz} column as an Instant (null stays null). */
    public static Instant instant(Row row, String column) {
        OffsetDateTime t = row.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }
}
