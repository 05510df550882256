package ht.platform.wallet.model;

import ht.platform.support.http.Paging;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;

/**
 * Keyset pages of a project's rows in one mode, newest first ({@code createdAt desc, id desc}), for every listed
 * aggregate with {@code id, projectId, mode, createdAt}. The cursor must be one of the caller's rows.
 */
final class NewestFirst {

    private NewestFirst() {
    }

    /** Up to {@code limit} rows after the cursor {@code after} (null: from the newest). */
    static <T> Uni<List<T>> page(Class<T> type, String projectId, String mode, String after, int limit) {
        String entity = type.getSimpleName();
        return Panache.withSession(() -> Panache.getSession().chain(s -> {
            Uni<Object[]> cursor = after == null ? Uni.createFrom().nullItem()
                    : s.createSelectionQuery("select createdAt, id from " + entity + " where id = ?1 and projectId = ?2 and mode = ?3",
                            Object[].class).setParameter(1, after).setParameter(2, projectId).setParameter(3, mode)
                    .getSingleResultOrNull().invoke(c -> {
                        if (c == null) {
                            throw Paging.unknownCursor();
                        }
                    });
            return cursor.chain(c -> {
                var query = c == null
                        ? s.createSelectionQuery("from " + entity + " where projectId = ?1 and mode = ?2"
                                + " order by createdAt desc, id desc", type)
                        : s.createSelectionQuery("from " + entity + " where projectId = ?1 and mode = ?2"
                                + " and (createdAt < ?3 or (createdAt = ?3 and id < ?4)) order by createdAt desc, id desc", type)
                                .setParameter(3, (Instant) c[0]).setParameter(4, c[1]);
                return query.setParameter(1, projectId).setParameter(2, mode).setMaxResults(limit).getResultList();
            });
        }));
    }
}
