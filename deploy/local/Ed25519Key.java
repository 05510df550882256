import java.security.KeyPairGenerator;
import java.util.Base64;

/** Prints a fresh Ed25519 private key, PKCS#8 DER in base64: the KYC_PROOF_SIGNING_KEY format (run.sh keeps it). */
public class Ed25519Key {
    public static void main(String[] args) throws Exception {
        byte[] pkcs8 = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded();
        System.out.println(Base64.getEncoder().encodeToString(pkcs8));
    }
}
