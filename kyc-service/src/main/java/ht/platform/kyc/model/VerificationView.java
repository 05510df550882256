package ht.platform.kyc.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ht.platform.kyc.model.Verification;
import ht.platform.support.time.Timestamps;

/**
 * The read shape of a verification (source 2.3), used by the API and by event payloads. It is built from an
 * allow-list of fields: nothing from the images, the MRZ or any document data can reach it.
 */
public final class VerificationView {

    public static final String ASSURANCE_SOURCE = "automated_document_and_face_check";

    private VerificationView() { }

    public static ObjectNode of(ObjectMapper json, Verification v) {
        ObjectNode node = json.createObjectNode();
        node.put("id", v.id);
        node.put("object", "verification");
        node.put("external_user_id", v.externalUserId);
        node.put("status", v.status);
        node.put("level", v.level);
        if (v.result == null) {
            node.putNull("result");
        } else {
            try {
                node.set("result", json.readTree(v.result));
            } catch (Exception e) {
                throw new IllegalStateException("stored result is not JSON", e);
            }
        }
        node.put("reason_code", v.reasonCode);
        ArrayNode reasons = node.putArray("reason_codes");
        for (String r : v.reasonCodes == null ? new String[0] : v.reasonCodes) {
            reasons.add(r);
        }
        node.put("created_at", Timestamps.seconds(v.createdAt));
        node.put("completed_at", Timestamps.seconds(v.completedAt));
        node.put("expires_at", Timestamps.seconds(v.expiresAt));
        node.put("assurance_source", ASSURANCE_SOURCE);
        node.put("government_registry_checked", false);
        node.put("attempts", v.attempts);
        node.put("livemode", !v.test());
        node.put("reference", v.reference);
        if (v.metadata == null) {
            node.set("metadata", json.createObjectNode());
        } else {
            try {
                node.set("metadata", json.readTree(v.metadata));
            } catch (Exception e) {
                throw new IllegalStateException("stored metadata is not JSON", e);
            }
        }
        return node;
    }

    /** The created-verification shape (source 2.2), answered by create and retry. */
    public static ObjectNode created(ObjectMapper json, Verification v, String verificationUrl) {
        ObjectNode node = json.createObjectNode();
        node.put("id", v.id);
        node.put("object", "verification");
        node.put("status", v.status);
        node.put("verification_url", verificationUrl);
        node.put("expires_at", Timestamps.seconds(v.expiresAt));
        node.put("created_at", Timestamps.seconds(v.createdAt));
        node.put("livemode", !v.test());
        return node;
    }
}
