package ht.platform.kyc.provider;

/** The outcome of one check; only {@code passed} can contribute to a verified decision. */
public enum CheckStatus {
    passed, failed, inconclusive, not_performed
}
