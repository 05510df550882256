package ht.platform.support.crypto;

/** The form {@link SecretBox} seals new values in; it opens both, whatever this says. */
public enum SealFormat {
    /** The form before Tink ({@link LegacySealing}): the release before this one opens it. */
    LEGACY,
    /** Tink's: AES-256-GCM (seal) and AES-256-SIV (sealStable) keysets, each value naming its key. */
    TINK
}
