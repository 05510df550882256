package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.Verification;
import io.quarkus.runtime.Startup;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** EdDSA (Ed25519) proofs of a verified verification, and the public JWKS that verifies them offline. */
@ApplicationScoped
@Startup
public class ProofService {

    private static final Logger LOG = Logger.getLogger(ProofService.class);

    public record Proof(String token, String kid, Instant expiresAt) { }

    @Inject
    KycSettings settings;

    @ConfigProperty(name = "public-base-url")
    String publicBaseUrl;

    private PrivateKey privateKey;
    private String kid;
    private List<Map<String, Object>> jwks;

    @PostConstruct
    void init() {
        try {
            KeyFactory factory = KeyFactory.getInstance("Ed25519");
            PublicKey publicKey;
            if (settings.proof().signingKey().filter(k -> !k.isBlank()).isPresent()) {
                privateKey = factory.generatePrivate(new PKCS8EncodedKeySpec(
                        Base64.getDecoder().decode(settings.proof().signingKey().get().trim())));
                publicKey = derivePublic((EdECPrivateKey) privateKey);
            } else {
                LOG.warn("kyc.proof.signing-key (KYC_PROOF_SIGNING_KEY) is not set: proofs are signed with an ephemeral key"
                        + " that only this process publishes; set the key in every real deployment");
                KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                privateKey = pair.getPrivate();
                publicKey = pair.getPublic();
            }
            List<Map<String, Object>> keys = new ArrayList<>();
            OctetKeyPairJsonWebKey jwk = jwk(publicKey);
            kid = jwk.getKeyId();
            keys.add(jwk.toParams(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
            for (String retired : settings.proof().retiredPublicKeys().orElse(List.of())) {
                PublicKey old = factory.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(retired.trim())));
                keys.add(jwk(old).toParams(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
            }
            jwks = List.copyOf(keys);
        } catch (Exception e) {
            throw new IllegalStateException("kyc.proof.signing-key must be an Ed25519 private key in PKCS#8 base64", e);
        }
    }

    private static OctetKeyPairJsonWebKey jwk(PublicKey publicKey) throws Exception {
        OctetKeyPairJsonWebKey jwk = new OctetKeyPairJsonWebKey(publicKey);
        jwk.setKeyId(jwk.calculateBase64urlEncodedThumbprint("SHA-256"));
        jwk.setUse("sig");
        jwk.setAlgorithm("EdDSA");
        return jwk;
    }

    /** The public key of an Ed25519 private key (the JDK cannot derive it directly, so sign-free: via a fixed-seed pair). */
    private static PublicKey derivePublic(EdECPrivateKey key) throws Exception {
        byte[] seed = key.getBytes().orElseThrow();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(255, new java.security.SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
            }
        });
        return generator.generateKeyPair().getPublic();
    }

    public Map<String, Object> jwks() {
        return Map.of("keys", jwks);
    }

    public String kid() {
        return kid;
    }

    public Proof sign(Verification v, Instant now, boolean includeExternalUserId, Instant subjectExpiresAt) {
        Instant expires = now.plus(settings.proof().validity());
        Map<String, Object> kyc = new LinkedHashMap<>();
        kyc.put("status", v.status);
        kyc.put("level", v.level);
        kyc.put("verified_at", v.verifiedAt.getEpochSecond());
        kyc.put("assurance_source", VerificationView.ASSURANCE_SOURCE);
        kyc.put("government_registry_checked", false);
        var claims = Jwt.issuer(publicBaseUrl).subject(v.id).audience(v.applicationId)
                .issuedAt(now.getEpochSecond()).expiresAt(expires.getEpochSecond())
                .claim("jti", "prf_" + UUID.randomUUID().toString().replace("-", ""))
                .claim("livemode", !v.test())
                .claim("kyc", kyc);
        if (includeExternalUserId) {
            claims.claim("external_user_id", v.externalUserId);
        }
        String token = claims.jws().keyId(kid).algorithm(SignatureAlgorithm.EDDSA).header("typ", "JWT").sign(privateKey);
        return new Proof(token, kid, expires);
    }
}
