package ht.platform.checkout.model;

import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;

/**
 * Keyset pages of an application's rows in one mode, newest first ({@code createdAt desc, id desc}), for every listed
 * aggregate with {@code id, applicationId, mode, createdAt}; optionally filtered on one field. The cursor must be
 * one of the caller's rows, else 400 on {@code starting_after}.
 */
final class NewestFirst {

    private NewestFirst() {
    }

    /**
     * Up to {@code limit} rows after the cursor {@code after} (null: from the newest) whose {@code field} equals
     * {@code value} (null value: no filter); {@code cursorError} is the 400's message for a cursor that is not the caller's.
     */
    static <T> Uni<List<T>> page(Class<T> type, String applicationId, String mode, String field, String value, String after,
                                 String cursorError, int limit) {
        String entity = type.getSimpleName();
        return Panache.withSession(() -> Panache.getSession().chain(s -> {
            Uni<Object[]> cursor = after == null ? Uni.createFrom().nullItem()
                    : s.createSelectionQuery("select createdAt, id from " + entity
                                    + " where id = :id and applicationId = :app and mode = :mode", Object[].class)
                            .setParameter("id", after).setParameter("app", applicationId).setParameter("mode", mode)
                            .getSingleResultOrNull().invoke(c -> {
                                if (c == null) {
                                    throw ApiException.invalid("starting_after", cursorError);
                                }
                            });
            return cursor.chain(c -> {
                StringBuilder q = new StringBuilder("from " + entity + " where applicationId = :app and mode = :mode");
                if (value != null) {
                    q.append(" and ").append(field).append(" = :value");
                }
                if (c != null) {
                    q.append(" and (createdAt < :cAt or (createdAt = :cAt and id < :cId))");
                }
                q.append(" order by createdAt desc, id desc");
                var query = s.createSelectionQuery(q.toString(), type).setParameter("app", applicationId).setParameter("mode", mode);
                if (value != null) {
                    query.setParameter("value", value);
                }
                if (c != null) {
                    query.setParameter("cAt", (Instant) c[0]).setParameter("cId", c[1]);
                }
                return query.setMaxResults(limit).getResultList();
            });
        }));
    }
}
