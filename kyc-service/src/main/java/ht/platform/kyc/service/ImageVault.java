package ht.platform.kyc.service;

import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.model.Verification;
import ht.platform.kyc.model.VerificationStore;
import ht.platform.kyc.provider.ImageQuality;
import ht.platform.support.crypto.SecretBox;
import ht.platform.support.errors.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A live verification's photos: read within bounds, cleaned to their pixels, kept sealed only until the decision,
 * then erased with the erasure recorded.
 */
@ApplicationScoped
public class ImageVault {

    @Inject
    KycSettings settings;

    @Inject
    SecretBox secretBox;

    @Inject
    VerificationStore verifications;

    /** Reads one upload and checks the size its header declares, without decoding a pixel. */
    public byte[] bounded(Path upload, String param) {
        if (upload == null) {
            throw ApiException.invalid(param, "A photo is required");
        }
        byte[] bytes;
        try {
            if (Files.size(upload) > settings.decision().maxImageBytes()) {
                throw new ApiException(413, "PAYLOAD_TOO_LARGE", "Each photo must be at most 10 MiB", param);
            }
            bytes = Files.readAllBytes(upload);
        } catch (IOException e) {
            throw new ApiException(400, "INVALID_REQUEST", "The upload could not be read", param);
        }
        if (bytes.length == 0) {
            throw ApiException.invalid(param, "A photo is required");
        }
        ImageQuality.Size size = ImageQuality.format(bytes) == null ? null : ImageQuality.declaredSize(bytes);
        if (size == null || size.width() <= 0 || size.height() <= 0) {
            throw ApiException.invalid(param, "Photos must be JPEG or PNG images");
        }
        long max = settings.images().maxPixels();
        if (size.pixels() > max) {
            throw new ApiException(413, "IMAGE_TOO_LARGE", "Each photo may have at most " + max / 1_000_000 + " megapixels", param);
        }
        return bytes;
    }

    /** Decodes (bounded, subsampled) and re-encodes the pixels only; runs on the image workers. */
    public byte[] clean(byte[] bytes, String param) {
        var image = ImageQuality.decodeBounded(bytes, settings.images().maxSide());
        if (image == null) {
            throw ApiException.invalid(param, "Photos must be JPEG or PNG images");
        }
        // EXIF and every other metadata block are dropped: only the pixels are kept (and only until the decision).
        return ImageQuality.stripMetadata(image);
    }

    /** Seals and stores one cleaned photo of the verification, in the caller's transaction. */
    public Uni<Void> store(Verification v, String kind, byte[] clean, Instant now) {
        return verifications.storeImage(v.id, kind, secretBox.seal(clean, binding(v.id, kind)), now);
    }

    /** The verification's photos by kind, opened. */
    public Uni<Map<String, byte[]>> open(String verificationId) {
        return verifications.sealedImages(verificationId).map(sealed -> {
            Map<String, byte[]> out = new HashMap<>();
            sealed.forEach((kind, bytes) -> out.put(kind, secretBox.open(bytes, binding(verificationId, kind))));
            return out;
        });
    }

    /** Erases the verification's photos in the caller's transaction; the erasure is recorded when there were any. */
    public Uni<Void> erase(Verification v, Instant now) {
        return verifications.eraseImages(v.id).invoke(n -> {
            if (n > 0) {
                v.imagesErasedAt = now;
            }
        }).replaceWithVoid();
    }

    /** A sealed photo opens only for its verification and kind. */
    private static byte[] binding(String verificationId, String kind) {
        return (verificationId + ":" + kind).getBytes(StandardCharsets.UTF_8);
    }
}
