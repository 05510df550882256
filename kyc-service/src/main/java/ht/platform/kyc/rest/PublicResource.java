package ht.platform.kyc.rest;

import ht.platform.kyc.provider.BuiltInChecks;
import ht.platform.kyc.provider.ScreenCapture;
import ht.platform.kyc.service.DecisionEngine;
import ht.platform.kyc.service.ProofService;
import ht.platform.kyc.service.VerificationService;
import ht.platform.kyc.model.VerificationView;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What needs no key: the capabilities and the public keys of the proofs. */
@Path("/api/v1/capabilities")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Public")
public class PublicResource {

    @Inject
    ProofService proofs;

    @Inject
    DecisionEngine engine;

    @GET
    @Operation(operationId = "retrieveCapabilities", summary = "Countries, documents, levels and features (no key needed)")
    public Map<String, Object> capabilities() {
        Map<String, Object> features = new LinkedHashMap<>();
        features.put("proof", true);
        features.put("webhooks", true);
        features.put("test_mode", true);
        features.put("locales", VerificationService.LOCALES);
        features.put("mrz_read", engine.mrzEngine().isPresent());
        engine.mrzEngine().ifPresent(version -> features.put("mrz_engine", version));
        Optional<String> faceModel = engine.faceModel();
        features.put("face_match", faceModel.isPresent());
        faceModel.ifPresent(model -> features.put("face_model", model));
        // what runs, by name: no active liveness (blink, turn) is claimed; the screen-capture heuristics look at the document only
        Map<String, Object> liveness = new LinkedHashMap<>();
        liveness.put("selfie_not_document_portrait", faceModel.isPresent());
        liveness.put("image_metadata_stripped", true);
        liveness.put("screen_capture_detection", true);
        liveness.put("screen_capture_heuristics", ScreenCapture.HEURISTICS);
        liveness.put("screen_capture_checked_on", List.of("document", "selfie"));
        liveness.put("active_liveness", false);
        features.put("liveness", liveness);
        features.put("checks", BuiltInChecks.describe(engine.mrzEngine().isPresent(), faceModel.isPresent()));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("countries", List.of("HT"));
        out.put("documents", VerificationService.DOCUMENT_TYPES);
        out.put("levels", List.of("standard"));
        out.put("features", features);
        out.put("assurance_source", VerificationView.ASSURANCE_SOURCE);
        out.put("government_registry_checked", false);
        return out;
    }
}
