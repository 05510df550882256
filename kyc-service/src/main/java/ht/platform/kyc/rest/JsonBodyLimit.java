package ht.platform.kyc.rest;

import ht.platform.kyc.config.KycSettings;
import ht.platform.support.errors.ApiException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The HTTP layer admits up to 32 MiB so that the hosted page can upload identity images (10 MiB each); the
 * JSON API and the operator API keep the platform's 1 MiB limit (413 PAYLOAD_TOO_LARGE).
 */
@ApplicationScoped
public class JsonBodyLimit {

    @Inject
    KycSettings settings;

    @ServerRequestFilter(preMatching = true, priority = 800)
    public void limit(HttpServerRequest request) {
        String path = request.path();
        if (!path.startsWith("/api/") && !path.startsWith("/admin/")) {
            return;
        }
        String length = request.getHeader("Content-Length");
        if (length == null) {
            return;
        }
        long bytes;
        try {
            bytes = Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            throw new ApiException(400, "INVALID_REQUEST", "Invalid Content-Length");
        }
        if (bytes > settings.jsonMaxBodyBytes()) {
            throw new ApiException(413, "PAYLOAD_TOO_LARGE", "The request body is larger than 1 MiB");
        }
    }
}
