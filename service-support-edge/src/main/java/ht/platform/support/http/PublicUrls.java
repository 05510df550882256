package ht.platform.support.http;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The service's public origin ({@code public-base-url}, env {@code PUBLIC_BASE_URL}), the one place every link a
 * customer or merchant follows is built from: hosted pages, payment links, sign-in links, proof issuers.
 */
@ApplicationScoped
public class PublicUrls {

    private final String base;

    public PublicUrls(@ConfigProperty(name = "public-base-url") String base) {
        this.base = base.replaceAll("/+$", "");
    }

    /** The origin without a trailing slash, e.g. {@code https://pay.example.ht}. */
    public String base() {
        return base;
    }

    /** {@code path} (starting with '/') on the public origin. */
    public String of(String path) {
        return base + path;
    }

    /** Cookies carry the Secure flag when the public origin is https. */
    public boolean secure() {
        return base.startsWith("https:");
    }
}
