package ht.platform.support.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

/** HTTP edge settings every service shares; each service names its own request-id header. */
@ConfigMapping(prefix = "platform.http")
public interface HttpSettings {

    /** e.g. Kyc-Request-Id, Checkout-Request-Id, X-Gateway-Request-Id */
    String requestIdHeader();

    /** The limit of every request body (JSON API, operator API, forms): 1 MiB. */
    @WithDefault("1048576")
    long maxBodyBytes();

    /** Path prefixes that take file uploads (kyc's hosted capture pages) and have the larger limit below. */
    Optional<List<String>> uploadPaths();

    @WithDefault("33554432")
    long maxUploadBytes();

    /**
     * Path prefixes whose next segment is a secret and is masked in the access log: hosted-page tokens and the
     * external user id of a subject.
     */
    @WithDefault("/v/,/pay/,/pay/l/,/wallet/,/api/v1/subjects/")
    List<String> accessLogMaskedAfter();

    default long limitFor(String path) {
        return uploadPaths().filter(prefixes -> prefixes.stream().anyMatch(path::startsWith)).isPresent()
                ? maxUploadBytes() : maxBodyBytes();
    }
}
