package ht.platform.support.sql;

import ht.platform.support.errors.ApiException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;

/**
 * Keyset pages of one owner's rows in one mode, newest first ({@code createdAt desc, id desc}), for every listed
 * aggregate with {@code id, <owner>, mode, createdAt}; optionally filtered on one field. The cursor must be one of the
 * owner's rows in that mode, else 400 on {@code starting_after}.
 *
 * @param type       the entity
 * @param ownerField its owner attribute ({@code applicationId}, {@code projectId}); a constant, never input
 */
public record NewestFirst<T>(Class<T> type, String ownerField) {

    /**
     * Up to {@code limit} rows after the cursor {@code after} (null: from the newest) whose {@code field} equals
     * {@code value} (null value: no filter); {@code cursorError} is the 400's message for a cursor that is not the owner's.
     */
    public Uni<List<T>> page(String ownerId, String mode, String field, String value, String after, String cursorError,
                             int limit) {
        String entity = type.getSimpleName();
        String owned = " where " + ownerField + " = :owner and mode = :mode";
        return Panache.withSession(() -> Panache.getSession().chain(s -> {
            Uni<Object[]> cursor = after == null ? Uni.createFrom().nullItem()
                    : s.createSelectionQuery("select createdAt, id, " + ownerField + ", mode from " + entity + " where id = :id",
                                    Object[].class).setParameter("id", after)
                            .getSingleResultOrNull().invoke(c -> {
                                if (c == null || !Rows.isOwners((String) c[2], (String) c[3], ownerId, mode)) {
                                    throw ApiException.invalid("starting_after", cursorError);
                                }
                            });
            return cursor.chain(c -> {
                StringBuilder q = new StringBuilder("from " + entity + owned);
                if (value != null) {
                    q.append(" and ").append(field).append(" = :value");
                }
                if (c != null) {
                    q.append(" and (createdAt < :cAt or (createdAt = :cAt and id < :cId))");
                }
                q.append(" order by createdAt desc, id desc");
                var query = s.createSelectionQuery(q.toString(), type).setParameter("owner", ownerId).setParameter("mode", mode);
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
