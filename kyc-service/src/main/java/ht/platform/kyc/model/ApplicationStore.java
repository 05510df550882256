package ht.platform.kyc.model;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The application aggregate, as Panache entities in the caller's session: a change to a found application is written
 * at commit. A new one is inserted on the plain reactive client, in the transaction that registers its addresses.
 */
@ApplicationScoped
public class ApplicationStore {

    /** The application, or null. */
    public Uni<Application> find(String id) {
        return Application.findById(id);
    }

    /** In the caller's transaction on the plain reactive client, where its webhook addresses are registered too. */
    public Uni<Void> insert(SqlConnection conn, Application app) {
        return conn.preparedQuery("INSERT INTO kyc.applications (id, name, return_urls, created_at) VALUES ($1, $2, $3, $4)")
                .execute(Tuple.of(app.id, app.name, app.returnUrls, OffsetDateTime.ofInstant(app.createdAt, ZoneOffset.UTC)))
                .replaceWithVoid();
    }
}
