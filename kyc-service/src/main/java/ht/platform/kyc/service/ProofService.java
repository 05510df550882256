package ht.platform.kyc.service;

import ht.platform.support.http.PublicUrls;
import ht.platform.kyc.model.VerificationView;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.Verification;
import ht.platform.support.auth.ApiPrincipal;
import ht.platform.support.errors.ApiException;
import ht.platform.support.time.Timestamps;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.OctetKeyPairJsonWebKey;

import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.security.interfaces.EdECPrivateKey;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * EdDSA (Ed25519) proofs of a verified verification, and the public JWKS that verifies them offline. Test and live
 * are apart: test proofs are signed with a test key published only in the test JWKS.
 */
@ApplicationScoped
@Startup
public class ProofService {

    private static final Logger LOG = Logger.getLogger(ProofService.class);

    public record Proof(String token, String kid, Instant expiresAt) { }

    @Inject
    PublicUrls urls;

    @Inject
    KycSettings settings;

    @Inject
    VerificationService verifications;

    @Inject
    SubjectService subjects;

    @Inject
    Clock clock;

    /** One mode's signing key, its kid, and the public keys (current and retired) its JWKS publishes. */
    private record ModeKeys(PrivateKey privateKey, String kid, List<Map<String, Object>> jwks) { }

    private ModeKeys live;
    private ModeKeys test;

    @PostConstruct
    void init() {
        KeyPair livePair = signingKey(settings.proof().signingKey(), settings.proof().allowEphemeralKey());
        live = modeKeys(livePair, settings.proof().retiredPublicKeys(), "kyc.proof.retired-public-keys");
        KeyPair testPair = settings.proof().testSigningKey().map(String::trim).filter(k -> !k.isEmpty())
                .map(k -> signingKey(Optional.of(k), false))
                .orElseGet(() -> testKeyOf(livePair));
        test = modeKeys(testPair, settings.proof().retiredTestPublicKeys(), "kyc.proof.retired-test-public-keys");
    }

    private static ModeKeys modeKeys(KeyPair pair, Optional<List<String>> retiredKeys, String property) {
        try {
            List<Map<String, Object>> keys = new ArrayList<>();
            OctetKeyPairJsonWebKey jwk = jwk(pair.getPublic());
            keys.add(jwk.toParams(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
            KeyFactory factory = KeyFactory.getInstance("Ed25519");
            for (String retired : retiredKeys.orElse(List.of())) {
                PublicKey old = factory.generatePublic(new X509EncodedKeySpec(Base64.getMimeDecoder().decode(retired.trim())));
                keys.add(jwk(old).toParams(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
            }
            return new ModeKeys(pair.getPrivate(), jwk.getKeyId(), List.copyOf(keys));
        } catch (Exception e) {
            throw new IllegalStateException(property + " must be Ed25519 public keys (X.509 SubjectPublicKeyInfo DER, base64)", e);
        }
    }

    /**
     * Without {@code kyc.proof.test-signing-key}, the test key is derived one-way from the live key (SHA-256 of a label
     * and the live seed): every replica derives the same test key, and knowing it reveals nothing of the live key.
     */
    static KeyPair testKeyOf(KeyPair live) {
        try {
            byte[] liveSeed = ((EdECPrivateKey) live.getPrivate()).getBytes().orElseThrow();
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update("kyc test-mode proof key".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return fromSeed(sha.digest(liveSeed));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available in this JVM", e);
        }
    }

    /**
     * The signing key pair. A configured key (PKCS#8 DER in base64, as {@code openssl genpkey -algorithm ed25519
     * -outform DER | base64 -w0} prints it) is required: every replica must sign with the same key, or proofs of one
     * replica would fail against the JWKS of another. Only with {@code kyc.proof.allow-ephemeral-key=true} (dev, test)
     * does a missing key fall back to a throwaway pair of this process.
     */
    static KeyPair signingKey(Optional<String> configured, boolean allowEphemeral) {
        Optional<String> key = configured.map(String::trim).filter(k -> !k.isEmpty());
        if (key.isEmpty()) {
            if (!allowEphemeral) {
                throw new IllegalStateException("kyc.proof.signing-key (env KYC_PROOF_SIGNING_KEY) is not set. Set it to the same Ed25519"
                        + " private key on every replica (PKCS#8 DER in base64: openssl genpkey -algorithm ed25519 -outform DER | base64 -w0);"
                        + " only development and tests may set kyc.proof.allow-ephemeral-key=true to sign with a throwaway key.");
            }
            LOG.warn("kyc.proof.signing-key is not set and kyc.proof.allow-ephemeral-key=true: proofs are signed with a throwaway key"
                    + " that only this process publishes (development and tests only)");
            try {
                return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("Ed25519 is not available in this JVM", e);
            }
        }
        PrivateKey privateKey;
        try {
            privateKey = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(key.get())));
        } catch (Exception e) {
            throw new IllegalStateException("kyc.proof.signing-key (env KYC_PROOF_SIGNING_KEY) must be an Ed25519 private key,"
                    + " PKCS#8 DER in base64 (openssl genpkey -algorithm ed25519 -outform DER | base64 -w0)");
        }
        if (!(privateKey instanceof EdECPrivateKey edKey) || edKey.getBytes().isEmpty()) {
            throw new IllegalStateException("kyc.proof.signing-key (env KYC_PROOF_SIGNING_KEY) must be an Ed25519 private key");
        }
        PublicKey publicKey;
        try {
            publicKey = derivePublic(edKey);
            // self-test: what this key signs, the published public key verifies
            byte[] probe = "kyc-proof-key-self-test".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            java.security.Signature signer = java.security.Signature.getInstance("Ed25519");
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] signature = signer.sign();
            java.security.Signature verifier = java.security.Signature.getInstance("Ed25519");
            verifier.initVerify(publicKey);
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw new IllegalStateException("derived public key does not verify");
            }
        } catch (Exception e) {
            throw new IllegalStateException("The public key of kyc.proof.signing-key could not be derived", e);
        }
        return new KeyPair(publicKey, privateKey);
    }

    private static OctetKeyPairJsonWebKey jwk(PublicKey publicKey) throws Exception {
        OctetKeyPairJsonWebKey jwk = new OctetKeyPairJsonWebKey(publicKey);
        jwk.setKeyId(jwk.calculateBase64urlEncodedThumbprint("SHA-256"));
        jwk.setUse("sig");
        jwk.setAlgorithm("EdDSA");
        return jwk;
    }

    /** The public key of an Ed25519 private key (the JDK cannot derive it directly: via the pair of the same seed). */
    static PublicKey derivePublic(EdECPrivateKey key) throws Exception {
        return fromSeed(key.getBytes().orElseThrow()).getPublic();
    }

    /** The Ed25519 pair of a 32-byte seed (RFC 8032 private key). */
    static KeyPair fromSeed(byte[] seed) throws java.security.GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(255, new java.security.SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
            }
        });
        return generator.generateKeyPair();
    }

    /** The JWKS of live proofs: never a test key. */
    public Map<String, Object> jwks() {
        return Map.of("keys", live.jwks());
    }

    /** The JWKS of test proofs, published apart so that a test proof never verifies against the live JWKS. */
    public Map<String, Object> testJwks() {
        return Map.of("keys", test.jwks());
    }

    /**
     * A proof of the caller's verification, only while it tells the truth now: the verification is verified, its
     * validity has not ended, and its subject's status (in this mode) is {@code verified}.
     */
    public Uni<Proof> issue(ApiPrincipal caller, String id, boolean includeExternalUserId) {
        return verifications.get(caller, id).chain(v -> {
            if (!"verified".equals(v.status)) {
                throw new ApiException(409, "VERIFICATION_NOT_VERIFIED", "A proof exists only for a verified verification");
            }
            return Panache.withSession(() -> subjects.status(v.applicationId, v.mode, v.externalUserId)).map(subject -> {
                Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
                if ("restricted".equals(subject.status())) {
                    throw new ApiException(409, "SUBJECT_RESTRICTED", "The subject of this verification is restricted; no proof is issued");
                }
                Instant validUntil = subjects.validUntil(v);
                if (!validUntil.isAfter(now)) {
                    throw new ApiException(409, "VERIFICATION_EXPIRED",
                            "This verification's validity ended at " + Timestamps.seconds(validUntil) + "; no proof is issued");
                }
                if (!"verified".equals(subject.status())) {
                    throw new ApiException(409, "SUBJECT_NOT_VERIFIED",
                            "The subject's status is '" + subject.status() + "', not 'verified'; no proof is issued");
                }
                return sign(v, now, includeExternalUserId);
            });
        });
    }

    Proof sign(Verification v, Instant now, boolean includeExternalUserId) {
        Instant expires = now.plus(settings.proof().validity());
        Map<String, Object> kyc = new LinkedHashMap<>();
        kyc.put("status", v.status);
        kyc.put("level", v.level);
        kyc.put("verified_at", v.verifiedAt.getEpochSecond());
        kyc.put("assurance_source", VerificationView.ASSURANCE_SOURCE);
        kyc.put("government_registry_checked", false);
        var claims = Jwt.issuer(urls.base()).subject(v.id).audience(v.applicationId)
                .issuedAt(now.getEpochSecond()).expiresAt(expires.getEpochSecond())
                .claim("jti", "prf_" + UUID.randomUUID().toString().replace("-", ""))
                .claim("livemode", !v.test())
                .claim("kyc", kyc);
        if (includeExternalUserId) {
            claims.claim("external_user_id", v.externalUserId);
        }
        ModeKeys keys = v.test() ? test : live;
        String token = claims.jws().keyId(keys.kid()).algorithm(SignatureAlgorithm.EDDSA).header("typ", "JWT").sign(keys.privateKey());
        return new Proof(token, keys.kid(), expires);
    }
}
