package ht.platform.kyc.service;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The proof signing key: the exact format deploy/local/run.sh produces, and no throwaway key unless allowed. */
class ProofKeyTest {

    /** Printed by {@code openssl genpkey -algorithm ed25519 -outform DER | base64 -w0} (OpenSSL 3). */
    static final String OPENSSL_PRIVATE = "MC4CAQAwBQYDK2VwBCIEIGgyvUfSun4BIveB5M/OsiLgFMTEuDIiTDzS3yfoxiGp";
    /** Its public key, printed by {@code openssl pkey -inform DER -pubout -outform DER | base64 -w0}. */
    static final String OPENSSL_PUBLIC = "MCowBQYDK2VwAyEAdtzheurZC3z1tXb5l73W9OiBVZNsRlpNrsQuMwGv724=";

    @Test
    void acceptsTheKeyOpensslPrintsAndDerivesItsPublicKey() throws Exception {
        KeyPair pair = ProofService.signingKey(Optional.of(OPENSSL_PRIVATE), false);
        assertArrayEquals(Base64.getDecoder().decode(OPENSSL_PUBLIC), pair.getPublic().getEncoded(), "same public key as openssl");
        assertVerifies(pair);
        // what a shell may add around it: a trailing newline, line wrapping of plain `base64`
        String wrapped = OPENSSL_PRIVATE.substring(0, 40) + "\n" + OPENSSL_PRIVATE.substring(40) + "\n";
        assertArrayEquals(pair.getPublic().getEncoded(), ProofService.signingKey(Optional.of(wrapped), false).getPublic().getEncoded());
    }

    @Test
    void acceptsAFreshKeyFromTheRunScriptCommand() throws Exception {
        File openssl = new File("/usr/bin/openssl");
        assertTrue(openssl.canExecute(), "openssl is needed to generate the key exactly as deploy/local/run.sh does");
        Process p = new ProcessBuilder("sh", "-c", "openssl genpkey -algorithm ed25519 -outform DER | base64 -w0").start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertEquals(0, p.waitFor());
        String key = out.toString(StandardCharsets.US_ASCII);
        assertTrue(key.startsWith("MC4CAQAwBQYDK2VwBCIEI"), "PKCS#8 Ed25519 prefix");
        assertVerifies(ProofService.signingKey(Optional.of(key), false));
    }

    @Test
    void missingKeyFailsUnlessEphemeralKeysAreAllowed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProofService.signingKey(Optional.empty(), false));
        assertTrue(e.getMessage().contains("KYC_PROOF_SIGNING_KEY"), e.getMessage());
        assertTrue(e.getMessage().contains("every replica"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> ProofService.signingKey(Optional.of("  "), false));
        KeyPair a = ProofService.signingKey(Optional.empty(), true);
        KeyPair b = ProofService.signingKey(Optional.of(""), true);
        assertTrue(!java.util.Arrays.equals(a.getPublic().getEncoded(), b.getPublic().getEncoded()), "throwaway keys differ per process");
    }

    @Test
    void malformedKeysFailWithTheExpectedFormat() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProofService.signingKey(Optional.of("not-base64!"), false));
        assertTrue(e.getMessage().contains("PKCS#8 DER in base64"), e.getMessage());
        // a public key where the private one belongs
        assertThrows(IllegalStateException.class, () -> ProofService.signingKey(Optional.of(OPENSSL_PUBLIC), false));
        // the key must not leak into the message
        IllegalStateException leak = assertThrows(IllegalStateException.class,
                () -> ProofService.signingKey(Optional.of(OPENSSL_PRIVATE.substring(0, 30)), false));
        assertTrue(!leak.getMessage().contains(OPENSSL_PRIVATE.substring(0, 30)));
    }

    private static void assertVerifies(KeyPair pair) throws Exception {
        byte[] data = "proof".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(pair.getPrivate());
        signer.update(data);
        byte[] sig = signer.sign();
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(pair.getPublic());
        verifier.update(data);
        assertTrue(verifier.verify(sig));
    }
}
