package ht.platform.wallet.model;

import ht.platform.support.errors.ApiException;
import ht.platform.support.sql.Rows;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.util.List;

/**
 * Every query of webhook addresses. Methods named {@code read…} open their own session; the others run inside the
 * caller's session or transaction.
 */
@ApplicationScoped
public class WebhookEndpointStore {

    /** How many addresses the project has in a mode, counted under the project's row lock (registrations serialise). */
    public Uni<Long> countLocked(String projectId, String mode) {
        return Panache.getSession()
                .chain(s -> s.createNativeQuery("SELECT id FROM wallet.projects WHERE id = :p FOR UPDATE", String.class)
                        .setParameter("p", projectId).getSingleResult())
                .chain(x -> WebhookEndpoint.count("projectId = ?1 and mode = ?2", projectId, mode));
    }

    public Uni<WebhookEndpoint> persist(WebhookEndpoint endpoint) {
        return endpoint.persist();
    }

    /** Removes the address (the outbox forgets its deliveries first: DeliveryRestarts.forgetDestination). */
    public Uni<Void> delete(WebhookEndpoint endpoint) {
        return endpoint.delete();
    }

    /** The project's addresses in one mode, oldest first. */
    public Uni<List<WebhookEndpoint>> readAll(String projectId, String mode) {
        return Panache.withSession(() -> WebhookEndpoint.<WebhookEndpoint>find(
                "projectId = ?1 and mode = ?2 order by createdAt, id", projectId, mode).list());
    }

    /** The caller's address (under a row lock when {@code lock}), or 404. */
    public Uni<WebhookEndpoint> owned(String id, String projectId, String mode, boolean lock) {
        Uni<WebhookEndpoint> found = lock ? WebhookEndpoint.findById(id, LockModeType.PESSIMISTIC_WRITE) : WebhookEndpoint.findById(id);
        return found.invoke(e -> {
            if (e == null || !Rows.isOwners(e.projectId, e.mode, projectId, mode)) {
                throw ApiException.notFound("Webhook " + id);
            }
        });
    }
}
