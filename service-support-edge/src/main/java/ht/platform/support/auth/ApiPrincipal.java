package ht.platform.support.auth;

import java.util.Set;

/**
 * Who is calling: the key, its owner (a kyc/checkout application or a wallet project), its mode and scopes.
 * {@code ownerActive} is false for a revoked application.
 */
public record ApiPrincipal(String keyId, String ownerId, String mode, Set<String> scopes, boolean ownerActive) {

    public boolean live() {
        return "live".equals(mode);
    }

    public boolean test() {
        return "test".equals(mode);
    }
}
