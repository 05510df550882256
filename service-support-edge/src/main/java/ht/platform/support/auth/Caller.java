package ht.platform.support.auth;

import ht.platform.support.errors.ApiException;
import jakarta.enterprise.context.RequestScoped;

/** The authenticated caller of the current request. */
@RequestScoped
public class Caller {

    private ApiPrincipal principal;
    private String forbiddenCode = "FORBIDDEN";

    void set(ApiPrincipal principal, String forbiddenCode) {
        this.principal = principal;
        this.forbiddenCode = forbiddenCode;
    }

    public ApiPrincipal principal() {
        if (principal == null) {
            throw new ApiException(401, "UNAUTHENTICATED", "A valid API key is required");
        }
        return principal;
    }

    public String ownerId() {
        return principal().ownerId();
    }

    public String mode() {
        return principal().mode();
    }

    /** 403 naming the missing scope/permission when the key lacks it. */
    public ApiPrincipal require(String scope) {
        ApiPrincipal p = principal();
        if (!p.scopes().contains(scope)) {
            throw new ApiException(403, forbiddenCode, "This API key lacks the '" + scope + "' permission");
        }
        return p;
    }

    /** Test helpers are for test keys only (403 for a live key). */
    public ApiPrincipal requireTestMode() {
        ApiPrincipal p = principal();
        if (!p.test()) {
            throw new ApiException(403, forbiddenCode, "Test helpers are available to test-mode keys only");
        }
        return p;
    }
}
