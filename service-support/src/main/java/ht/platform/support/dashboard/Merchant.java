package ht.platform.support.dashboard;

import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import jakarta.enterprise.context.RequestScoped;


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
        return new ApiPrincipal("dashboard", s.ownerId(), s.mode(), s.permissions(), true);
    }

    /**
     * The session as the caller of an action that needs {@code permission}: 403 FORBIDDEN (an error page) when the key
     * or grant that made the session's link does not hold it, so a session can do nothing its key could not.
     */
    public ApiPrincipal require(String permission) {
        if (!session().may(permission)) {
            throw new ApiException(403, "FORBIDDEN", "This dashboard session lacks the '" + permission
                    + "' permission: it has the permissions of the key that made its sign-in link");
        }
        return principal();
    }
}
