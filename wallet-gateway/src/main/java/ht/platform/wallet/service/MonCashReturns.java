package ht.platform.wallet.service;

import ht.platform.support.web.ReturnGate;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


/**
 * The customer's return from MonCash ({@link ReturnGate}'s rule) around {@link MonCashPayments#returned}: only the
 * browser holding the payment's page token in its cookie sees the page; no cookie, no MonCash call.
 */
@ApplicationScoped
public class MonCashReturns {

    @Inject
    MonCashPayments moncash;

    @Inject
    ReturnGate gate;

    /** {@code pageToken}: the browser's cookie (a well-formed page token, or null). */
    public Uni<ReturnGate.Outcome> returned(String transactionId, String pageToken, String client) {
        return gate.pass(transactionId, pageToken, client,
                tx -> tx == null ? Uni.createFrom().nullItem() : moncash.returned(tx));
    }

    /** The cookie of a browser leaving for MonCash from {@code page}. */
    public String cookie(String page) {
        return gate.cookie(page);
    }

    /** The page a returning browser's cookie names; null for a cookie this service did not seal. */
    public String opened(String cookie) {
        return gate.opened(cookie);
    }
}
