package ht.platform.wallet.service;

import ht.platform.support.errors.ApiException;

/** The rules a payment and a withdrawal request share: a body, an amount within the limit, a reference. */
final class MoneyRequests {

    private MoneyRequests() { }

    static void bodyPresent(Object body) {
        if (body == null) {
            throw ApiException.invalid(null, "A JSON body is required");
        }
    }

    static void amount(Long amount, long maxAmount) {
        if (amount == null) {
            throw ApiException.invalid("amount", "amount is required (a positive integer)");
        }
        if (amount <= 0 || amount > maxAmount) {
            throw ApiException.invalid("amount", "amount must be a positive integer not above " + maxAmount);
        }
    }

    static void reference(String reference) {
        if (reference == null || reference.isBlank()) {
            throw ApiException.invalid("reference", "reference is required");
        }
        if (reference.length() > 100) {
            throw ApiException.invalid("reference", "reference must be at most 100 characters");
        }
    }
}
