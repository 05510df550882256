package ht.platform.checkout.model;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.util.List;

/**
 * Every query of webhook endpoints. Methods named {@code read…} open their own session; the others run inside the
 * caller's session or transaction.
 */
@ApplicationScoped
public class WebhookEndpointStore {

    /**
     * How many enabled endpoints the application has, counted under the application's row lock so that two
     * creations cannot both pass a limit.
     */
    public Uni<Long> countEnabledLocked(String applicationId) {
        return Application.findById(applicationId, LockModeType.PESSIMISTIC_WRITE)
                .chain(() -> WebhookEndpoint.count("applicationId = ?1 and status = 'enabled'", applicationId));
    }

    public Uni<WebhookEndpoint> persist(WebhookEndpoint endpoint) {
        return endpoint.persist();
    }

    public Uni<WebhookEndpoint> byId(String id) {
        return WebhookEndpoint.findById(id);
    }

    public Uni<WebhookEndpoint> read(String id) {
        return Panache.withSession(() -> byId(id));
    }

    public Uni<WebhookEndpoint> lock(String id) {
        return WebhookEndpoint.findById(id, LockModeType.PESSIMISTIC_WRITE);
    }

    /** The enabled endpoints of an application in one mode, oldest first. */
    public Uni<List<WebhookEndpoint>> readEnabled(String applicationId, String mode) {
        return Panache.withSession(() -> WebhookEndpoint.<WebhookEndpoint>find(
                "applicationId = ?1 and mode = ?2 and status = 'enabled' order by createdAt", applicationId, mode).list());
    }

    public Uni<List<WebhookEndpoint>> byIds(List<String> ids) {
        return ids.isEmpty() ? Uni.createFrom().item(List.of()) : WebhookEndpoint.<WebhookEndpoint>find("id in ?1", ids).list();
    }
}
