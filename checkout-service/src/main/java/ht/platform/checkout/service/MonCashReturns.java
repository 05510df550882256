package ht.platform.checkout.service;

import ht.platform.support.errors.ApiException;
import ht.platform.support.web.ReturnGate;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


/**
 * The customer's return from MonCash ({@link ReturnGate}'s rule) around {@link MonCashCheckout#customerReturned}:
 * only the browser holding the checkout session in its cookie sees the payment page; no cookie, no MonCash call.
 */
@ApplicationScoped
public class MonCashReturns {

    @Inject
    MonCashCheckout checkout;

    @Inject
    ReturnGate gate;

    /** {@code session}: the browser's cookie (a well-formed checkout session id, or null). */
    public Uni<ReturnGate.Outcome> returned(String transactionId, String session, String client) {
        return gate.pass(transactionId, session, client, tx -> checkout.customerReturned(tx, session)
                .map(pi -> pi.sessionId)
                .onFailure(e -> e instanceof ApiException a && a.status() == 404).recoverWithNull());
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
