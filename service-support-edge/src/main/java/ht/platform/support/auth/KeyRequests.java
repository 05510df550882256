package ht.platform.support.auth;

import ht.platform.support.errors.ApiException;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The operator's key request rules, the same in every service: a mode, and grants from the service's list. */
public final class KeyRequests {

    private KeyRequests() { }

    public static String mode(String mode) {
        if (!"test".equals(mode) && !"live".equals(mode)) {
            throw ApiException.invalid("mode", "mode must be 'test' or 'live'");
        }
        return mode;
    }

    /** What a key holds only when asked for by name: the dashboard (a session there has all the key's powers). */
    public static final Set<String> ASKED_FOR_ONLY = Set.of("dashboard:write");

    /**
     * The requested scopes/permissions (when omitted, all of {@code known} but {@link #ASKED_FOR_ONLY}); an unknown one
     * is a 400 on {@code param}.
     */
    public static Set<String> grants(List<String> requested, List<String> known, String param) {
        Set<String> granted = new LinkedHashSet<>(requested == null
                ? known.stream().filter(g -> !ASKED_FOR_ONLY.contains(g)).toList() : requested);
        for (String grant : granted) {
            if (!known.contains(grant)) {
                throw ApiException.invalid(param, "Unknown " + param.replaceAll("s$", "") + " '" + grant + "'; known: " + known);
            }
        }
        return granted;
    }

    /** A new secret key such as {@code co_test_…}: {@code servicePrefix} is {@code kyc_}, {@code co_} or {@code gw_}. */
    public static String newSecret(String servicePrefix, String mode) {
        return ApiKeys.generate(servicePrefix + mode + "_");
    }
}
