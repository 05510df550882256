package ht.platform.support.idempotency;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.http.RouteTemplates;
import ht.platform.support.outbox.OutboxWriter.InOneStatement;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * An idempotent creation (DESIGN rule 8) in one statement on the plain reactive client: the key with its answer
 * (when the request has one), the object's row, its event and the event's deliveries, in one round trip, without an ORM
 * session or BEGIN/COMMIT. The answer is known before the write (ids and times are chosen in Java), so the key is
 * recorded with it at once: a duplicate waits on the key's primary key until the first commits, then gets the stored
 * answer, or 409 IDEMPOTENCY_CONFLICT for another request; it never meets the key half-done. The request is named by
 * its resource method's route ({@link RouteTemplates#current}) and its body, as {@link Idempotency#run} names it.
 */
@ApplicationScoped
public class OneStatementCreate {

    /**
     * The table a creation writes one row into: its columns with their SQL types, in the order of the row's values, and
     * a condition without which nothing is written (SQL over the new row's columns, written {@code x.<column>}).
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
            return new Table(name, List.copyOf(names), List.copyOf(types), "true");
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

    @Inject
    Idempotency idempotency;

    @Inject
    Pool pool;

    private final Map<Table, String> keyedHeads = new ConcurrentHashMap<>();
    private final Map<Table, String> heads = new ConcurrentHashMap<>();

    /**
     * Validates the {@code Idempotency-Key} header, then the request ({@code valid} throws for a bad one), and writes
     * what it creates: answers the creation's answer, or the first answer given to the same key and request.
     */
    public Uni<StoredResponse> create(ApiPrincipal caller, String idempotencyKey, boolean keyRequired,
                                      Supplier<Creation> valid) {
        String key = idempotency.validateKey(idempotencyKey, keyRequired);
        Creation creation = valid.get();
        String fingerprint = key == null ? null : idempotency.fingerprint(RouteTemplates.current(), creation.request());
        List<Object> values = new ArrayList<>(key == null ? List.of()
                : idempotency.keyValues(caller, key, fingerprint, creation.answer()));
        Table table = creation.table();
        String head = key == null ? heads.computeIfAbsent(table, t -> head(t, false))
                : keyedHeads.computeIfAbsent(table, t -> head(t, true));
        values.addAll(creation.values());
        InOneStatement event = creation.event().apply(values.size() + 1);
        values.addAll(event.values());
        String sql = head + event.with() + " SELECT (SELECT count(*) FROM " + ROW + ") AS written, " + event.wakeUp();
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
     * {@code WITH v} (the new row and whether its condition holds), {@code k} (the key, parameters first, when
     * {@code keyed}) and {@code o} (the row, written when the condition holds and the key was new), ready for the
     * event's entries.
     */
    private String head(Table table, boolean keyed) {
        int from = keyed ? Idempotency.KEY_VALUES + 1 : 1;
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < table.columns().size(); i++) {
            values.append(i == 0 ? "" : ", ").append('$').append(from + i).append("::").append(table.types().get(i));
        }
        String columns = String.join(", ", table.columns());
        return "WITH v AS (SELECT x.*, COALESCE((" + table.condition() + "), false) AS allowed FROM (VALUES (" + values
                + ")) AS x (" + columns + ")), "
                + (keyed ? idempotency.keyEntry(1, "v WHERE v.allowed") + ", " : "")
                + ROW + " AS (INSERT INTO " + table.name() + " (" + columns + ") SELECT " + columns + " FROM v WHERE v.allowed"
                + (keyed ? " AND EXISTS (SELECT 1 FROM k)" : "") + " RETURNING 1), ";
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
