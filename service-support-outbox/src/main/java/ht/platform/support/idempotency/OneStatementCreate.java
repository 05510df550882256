package ht.platform.support.idempotency;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.outbox.OutboxWriter.InOneStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * An idempotent creation (DESIGN rule 8) in one statement on the plain reactive client: the key with its answer
 * (when the request has one), the object's row, its event and the event's deliveries, in one round trip, without an ORM
 * session or BEGIN/COMMIT. The answer is known before the write (ids and times are chosen in Java), so the key is
 * recorded with it at once: a duplicate waits on the key's primary key until the first commits, then gets the stored
 * answer, or 409 IDEMPOTENCY_CONFLICT for another request; it never meets the key half-done. The request is named by
 * its resource method's route and its body ({@link Idempotency#fingerprint}).
 */
@ApplicationScoped
public class OneStatementCreate {

    /**
     * The table a creation writes one row into: its columns with their SQL types, in the order of the row's values, and
     * an optional condition without which nothing is written (SQL over the new row's columns, written {@code x.<column>}).
     */
    public record Table(String name, List<String> columns, List<String> types, String condition) {

        /** {@code columns} as {@code "id text, amount numeric, created_at timestamptz"}. */
        public static Table of(String name, String columns) {
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (String column : columns.split(",")) {
                String[] nameAndType = column.strip().split("\\s+", 2);
                names.add(nameAndType[0]);
                types.add(nameAndType[1]);
            }
            return new Table(name, List.copyOf(names), List.copyOf(types), null);
        }

        /** The same table, written only when {@code condition} holds; otherwise the creation is refused. */
        public Table onlyIf(String condition) {
            return new Table(name, columns, types, condition);
        }
    }

    /**
     * What a valid request creates: {@code request} is what names it beside its route (for the key's fingerprint),
     * {@code answer} its answer, {@code values} its row in the order of the table's columns, {@code event} the event's
     * part of the statement ({@code source} {@value #ROW}, its parameters from the given number), and {@code refused}
     * the error when the table's condition did not hold.
     */
    public record Creation(Object request, StoredResponse answer, Table table, List<Object> values,
                           IntFunction<InOneStatement> event, Supplier<? extends RuntimeException> refused) {

        public static Creation of(Object request, StoredResponse answer, Table table, List<Object> values,
                                  IntFunction<InOneStatement> event) {
            return new Creation(request, answer, table, values, event, null);
        }

        public Creation refusedWith(Supplier<? extends RuntimeException> error) {
            return new Creation(request, answer, table, values, event, error);
        }
    }

    /** The CTE entry of the new row, the source of its event. */
    public static final String ROW = "o";

    /**
     * The reactive client keeps a statement prepared on its connection (one round trip per execution instead of a
     * prepare and an execution) only when it is shorter than this ({@code SqlConnectOptions}' default filter) and
     * {@code quarkus.datasource.reactive.cache-prepared-statements} is on.
     */
    static final int CACHED_SQL_LIMIT = 2048;

    private static final Logger LOG = Logger.getLogger(OneStatementCreate.class);

    @Inject
    Idempotency idempotency;

    @Inject
    Pool pool;

    private final Map<Table, String> keyedHeads = new ConcurrentHashMap<>();
    private final Map<Table, String> heads = new ConcurrentHashMap<>();
    private final Set<String> uncached = ConcurrentHashMap.newKeySet();

    /**
     * Validates the {@code Idempotency-Key} header, then the request ({@code valid} throws for a bad one), and writes
     * what it creates: answers the creation's answer, or the first answer given to the same key and request.
     */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, boolean keyRequired,
                                      Supplier<Creation> valid) {
        String key = idempotency.validateKey(idempotencyKey, keyRequired);
        Creation creation = valid.get();
        String fingerprint = key == null ? null : idempotency.fingerprint(creation.request());
        List<Object> values = new ArrayList<>(key == null ? List.of()
                : idempotency.keyValues(caller, key, fingerprint, creation.answer()));
        Table table = creation.table();
        String head = key == null ? heads.computeIfAbsent(table, t -> head(t, false))
                : keyedHeads.computeIfAbsent(table, t -> head(t, true));
        values.addAll(creation.values());
        InOneStatement event = creation.event().apply(values.size() + 1);
        values.addAll(event.values());
        String sql = head + event.with() + " SELECT (SELECT count(*) FROM " + ROW + ") AS written, " + event.wakeUp();
        if (sql.length() >= CACHED_SQL_LIMIT && uncached.add(table.name())) {
            LOG.warnf("the creation statement of %s has %d characters: the client prepares it anew each time (two round"
                    + " trips) instead of keeping it prepared", table.name(), sql.length());
        }
        return pool.preparedQuery(sql).execute(Tuple.tuple(values)).chain(rows -> {
            Row row = rows.iterator().next();
            if (row.getLong("written") == 1) {
                return Uni.createFrom().item(creation.answer());
            }
            if (key != null) {
                return idempotency.replay(pool, caller, key, fingerprint, creation.refused());
            }
            if (creation.refused() == null) {
                throw new IllegalStateException("nothing written for an unconditional creation in " + table.name());
            }
            throw creation.refused().get();
        });
    }

    /**
     * {@code WITH v} (the new row, when its condition holds), {@code k} (the key, parameters first, when {@code keyed})
     * and {@code o} (the row, written when the key was new), ready for the event's entries. A text value needs no cast:
     * Postgres types an untyped parameter of VALUES as text. Kept short, so that the client can keep it prepared
     * ({@link #CACHED_SQL_LIMIT}).
     */
    private String head(Table table, boolean keyed) {
        int from = keyed ? Idempotency.KEY_VALUES + 1 : 1;
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < table.columns().size(); i++) {
            String type = table.types().get(i);
            values.append(i == 0 ? "" : ", ").append('$').append(from + i).append(type.equals("text") ? "" : "::" + type);
        }
        String columns = String.join(", ", table.columns());
        return "WITH v AS (SELECT * FROM (VALUES (" + values + ")) AS x"
                + (table.condition() == null ? "" : " (" + columns + ") WHERE " + table.condition()) + "), "
                + (keyed ? idempotency.keyEntry(1, "v") + ", " : "")
                + ROW + " AS (INSERT INTO " + table.name() + " (" + columns + ") SELECT * FROM v"
                + (keyed ? " WHERE EXISTS (SELECT 1 FROM k)" : "") + " RETURNING 1), ";
    }

    /** The values of a row, nulls allowed. */
    public static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** A row's {@code timestamptz} value. */
    public static OffsetDateTime time(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
