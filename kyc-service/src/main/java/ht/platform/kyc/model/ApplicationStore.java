package ht.platform.kyc.model;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The application aggregate, as Panache entities in the caller's session: a change to a found application is written at commit. */
@ApplicationScoped
public class ApplicationStore {

    /** The application, or null. */
    public Uni<Application> find(String id) {
        return Application.findById(id);
    }

    public Uni<Void> insert(Application app) {
        return app.persist().replaceWithVoid();
    }
}
