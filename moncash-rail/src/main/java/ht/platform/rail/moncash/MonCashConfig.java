package ht.platform.rail.moncash;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where MonCash is and who we are there. {@code apiBase} is the REST host ending in {@code /Api}, {@code gatewayBase}
 * the customer-facing middleware ending in {@code /Moncash-middleware}. The secret never leaves this object:
 * {@link #toString()} hides it.
 */
public record MonCashConfig(URI apiBase, URI gatewayBase, String clientId, String clientSecret,
                            Duration connectTimeout, Duration totalTimeout) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofSeconds(20);

    public MonCashConfig {
        Objects.requireNonNull(apiBase, "apiBase");
        Objects.requireNonNull(gatewayBase, "gatewayBase");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientSecret, "clientSecret");
        apiBase = withoutTrailingSlash(apiBase);
        gatewayBase = withoutTrailingSlash(gatewayBase);
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        totalTimeout = totalTimeout == null ? DEFAULT_TOTAL_TIMEOUT : totalTimeout;
    }

    /**
     * The rail from {@code MONCASH_API_BASE}, {@code MONCASH_GATEWAY_BASE}, {@code MONCASH_CLIENT_ID},
     * {@code MONCASH_CLIENT_SECRET}; empty (no live MonCash rail) unless all four are set.
     */
    public static Optional<MonCashConfig> from(Map<String, String> env) {
        return of(env.get("MONCASH_API_BASE"), env.get("MONCASH_GATEWAY_BASE"), env.get("MONCASH_CLIENT_ID"),
                env.get("MONCASH_CLIENT_SECRET"), null, null);
    }

    /** Empty unless all four settings are present and non-blank. */
    public static Optional<MonCashConfig> of(String apiBase, String gatewayBase, String clientId, String clientSecret,
                                             Duration connectTimeout, Duration totalTimeout) {
        if (blank(apiBase) || blank(gatewayBase) || blank(clientId) || blank(clientSecret)) {
            return Optional.empty();
        }
        return Optional.of(new MonCashConfig(URI.create(apiBase.trim()), URI.create(gatewayBase.trim()), clientId.trim(),
                clientSecret.trim(), connectTimeout, totalTimeout));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static URI withoutTrailingSlash(URI uri) {
        String s = uri.toString();
        return s.endsWith("/") ? URI.create(s.substring(0, s.length() - 1)) : uri;
    }

    @Override
    public String toString() {
        return "MonCashConfig[apiBase=" + apiBase + ", gatewayBase=" + gatewayBase + ", clientId=" + clientId
                + ", clientSecret=***, connectTimeout=" + connectTimeout + ", totalTimeout=" + totalTimeout + "]";
    }
}
