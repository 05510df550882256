package ht.platform.support.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.ConfigurationV0;
import com.google.crypto.tink.DeterministicAead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.daead.AesSivKey;
import com.google.crypto.tink.daead.AesSivParameters;
import com.google.crypto.tink.daead.DeterministicAeadConfig;
import com.google.crypto.tink.subtle.Hkdf;
import com.google.crypto.tink.util.SecretBytes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * What is kept encrypted at rest (webhook secrets, identity images) and the feed's cursors, sealed with Google Tink:
 * an AES-256-GCM keyset for {@link #seal} and an AES-256-SIV (deterministic AEAD) keyset for {@link #sealStable}, in
 * Tink's form {@code 0x01 || key id (4 bytes) || ciphertext}. The keys come from the configured ones
 * (PLATFORM_ENCRYPTION_KEY, primary, and PLATFORM_ENCRYPTION_OLD_KEYS), each derived with HKDF-SHA256 for its use, so
 * every replica builds the same keysets and a rotation stays what it was: the new key seals, the old ones still open.
 * Values sealed in the form before Tink ({@link LegacySealing}) open as they always did; new values are sealed in the
 * form {@link CryptoSettings#sealFormat()} names.
 */
@ApplicationScoped
public class SecretBox {

    private static final byte TINK_PREFIX = 1;
    private static final int TINK_HEADER = 5;
    private static final byte[] NONE = new byte[0];

    private final LegacySealing legacy;
    private final SealFormat format;
    private final Aead aead;
    private final DeterministicAead stable;
    private final int currentAeadId;
    private final int currentStableId;

    @Inject
    public SecretBox(CryptoSettings settings) {
        this(decode(settings.key()), settings.oldKeys().orElse(List.of()).stream()
                .map(String::trim).filter(s -> !s.isEmpty()).map(SecretBox::decode).toList(), settings.sealFormat());
    }

    public SecretBox(byte[] rawKey) {
        this(rawKey, List.of());
    }

    /** Seals with {@code currentKey}; opens what it or any of {@code oldKeys} sealed. */
    public SecretBox(byte[] currentKey, List<byte[]> oldKeys) {
        this(currentKey, oldKeys, SealFormat.LEGACY);
    }

    public SecretBox(byte[] currentKey, List<byte[]> oldKeys, SealFormat format) {
        List<byte[]> all = new ArrayList<>();
        for (byte[] key : concat(currentKey, oldKeys)) {
            if (key.length != 32) {
                throw new IllegalArgumentException("platform.encryption keys must be 32 bytes in base64");
            }
            if (all.stream().noneMatch(k -> Arrays.equals(k, key))) {
                all.add(key);
            }
        }
        this.legacy = new LegacySealing(currentKey, oldKeys);
        this.format = format;
        try {
            AeadConfig.register(); // once per process; a later call changes nothing
            DeterministicAeadConfig.register();
            KeysetHandle.Builder aeadKeys = KeysetHandle.newBuilder();
            KeysetHandle.Builder stableKeys = KeysetHandle.newBuilder();
            AesGcmParameters gcm = AesGcmParameters.builder().setKeySizeBytes(32).setIvSizeBytes(12).setTagSizeBytes(16)
                    .setVariant(AesGcmParameters.Variant.TINK).build();
            AesSivParameters siv = AesSivParameters.builder().setKeySizeBytes(64).setVariant(AesSivParameters.Variant.TINK).build();
            for (int i = 0; i < all.size(); i++) {
                byte[] gcmBytes = derive(all.get(i), "aes-256-gcm", 32);
                byte[] sivBytes = derive(all.get(i), "aes-256-siv", 64);
                KeysetHandle.Builder.Entry a = KeysetHandle.importKey(AesGcmKey.builder().setParameters(gcm)
                        .setKeyBytes(SecretBytes.copyFrom(gcmBytes, InsecureSecretKeyAccess.get()))
                        .setIdRequirement(id(gcmBytes)).build()).withFixedId(id(gcmBytes));
                KeysetHandle.Builder.Entry s = KeysetHandle.importKey(AesSivKey.builder().setParameters(siv)
                        .setKeyBytes(SecretBytes.copyFrom(sivBytes, InsecureSecretKeyAccess.get()))
                        .setIdRequirement(id(sivBytes)).build()).withFixedId(id(sivBytes));
                aeadKeys.addEntry(i == 0 ? a.makePrimary() : a);
                stableKeys.addEntry(i == 0 ? s.makePrimary() : s);
            }
            KeysetHandle aeadSet = aeadKeys.build();
            KeysetHandle stableSet = stableKeys.build();
            this.aead = aeadSet.getPrimitive(ConfigurationV0.get(), Aead.class);
            this.stable = stableSet.getPrimitive(ConfigurationV0.get(), DeterministicAead.class);
            this.currentAeadId = aeadSet.getPrimary().getId();
            this.currentStableId = stableSet.getPrimary().getId();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the encryption keysets cannot be built", e);
        }
    }

    public byte[] seal(byte[] plain, byte[] associatedData) {
        if (format == SealFormat.LEGACY) {
            return legacy.seal(plain, associatedData);
        }
        try {
            return aead.encrypt(plain, bound(associatedData));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    /**
     * Seals so that the same value and associated data always give the same box (AES-SIV): a stable opaque token that
     * reveals only whether two tokens are equal. Opens with {@link #open}.
     */
    public byte[] sealStable(byte[] plain, byte[] associatedData) {
        if (format == SealFormat.LEGACY) {
            return legacy.sealStable(plain, associatedData);
        }
        try {
            return stable.encryptDeterministically(plain, bound(associatedData));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    public byte[] open(byte[] box, byte[] associatedData) {
        if (box.length > TINK_HEADER && box[0] == TINK_PREFIX) {
            try {
                return aead.decrypt(box, bound(associatedData));
            } catch (GeneralSecurityException e) {
                // sealed stable, or in the form before Tink (whose iv, before key ids, may start with 0x01)
            }
            try {
                return stable.decryptDeterministically(box, bound(associatedData));
            } catch (GeneralSecurityException e) {
                // in the form before Tink
            }
        }
        return legacy.open(box, associatedData);
    }

    /** True when the value was sealed with the current key (so re-sealing it would change nothing). */
    public boolean sealedWithCurrentKey(byte[] box) {
        if (box.length > TINK_HEADER && box[0] == TINK_PREFIX) {
            int id = ByteBuffer.wrap(box, 1, 4).getInt();
            if (id == currentAeadId || id == currentStableId) {
                return true;
            }
        }
        return legacy.sealedWithCurrentKey(box);
    }

    /** Text secrets (whsec_…) as base64 text, bound to the row they belong to. */
    public String sealText(String plain, String boundTo) {
        return Base64.getEncoder().encodeToString(seal(plain.getBytes(StandardCharsets.UTF_8), bytes(boundTo)));
    }

    public String openText(String sealed, String boundTo) {
        return new String(open(Base64.getDecoder().decode(sealed), bytes(boundTo)), StandardCharsets.UTF_8);
    }

    /** GCM binds no associated data and empty associated data alike; Tink takes the empty array for none. */
    private static byte[] bound(byte[] associatedData) {
        return associatedData == null ? NONE : associatedData;
    }

    private static byte[] derive(byte[] key, String use, int size) throws GeneralSecurityException {
        return Hkdf.computeHkdf("HMACSHA256", key, NONE, ("platform-secret-box|" + use).getBytes(StandardCharsets.US_ASCII), size);
    }

    /** The key's id in its keyset, the same on every replica: the first 4 bytes of the derived key's HMAC. */
    private static int id(byte[] derived) throws GeneralSecurityException {
        return ByteBuffer.wrap(Hkdf.computeHkdf("HMACSHA256", derived, NONE, "key-id".getBytes(StandardCharsets.US_ASCII), 4)).getInt();
    }

    private static List<byte[]> concat(byte[] first, List<byte[]> rest) {
        List<byte[]> out = new ArrayList<>();
        out.add(first);
        out.addAll(rest);
        return out;
    }

    private static byte[] decode(String base64) {
        return Base64.getDecoder().decode(base64.trim());
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
