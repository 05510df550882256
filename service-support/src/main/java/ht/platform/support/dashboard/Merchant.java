package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import jakarta.enterprise.context.RequestScoped;

import java.util.Set;

/** The signed-in merchant of the current dashboard request (set by {@link DashboardFilters}). */
@RequestScoped
public class Merchant {

    private DashboardSession session;
    private String requestId;

    void set(DashboardSession session, String requestId) {
        this.session = session;
        this.requestId = requestId;
    }

    public DashboardSession session() {
        if (session == null) {
            throw new IllegalStateException("no dashboard session on this request");
        }
        return session;
    }

    public String requestId() {
        return requestId;
    }

    /**
     * The session as the services' caller: the same service methods as the API run for the dashboard, with the
     * session's tenant and mode, so every rule (and every 404 for another tenant's object) lives once.
     */
    public ApiPrincipal principal() {
        DashboardSession s = session();
        return new ApiPrincipal("dashboard", s.ownerId(), s.mode(), Set.of(), true);
    }
}
