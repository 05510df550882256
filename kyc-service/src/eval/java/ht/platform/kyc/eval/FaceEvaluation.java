package ht.platform.kyc.eval;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.config.KycSettings;
import ht.platform.kyc.provider.Evidence;
import ht.platform.kyc.provider.FaceCheck;
import ht.platform.kyc.provider.FaceCohort;
import ht.platform.kyc.provider.FaceMatcher;
import ht.platform.kyc.provider.FaceScore;
import ht.platform.kyc.provider.FaceSidecar;
import ht.platform.kyc.service.DecisionEngine;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live pipeline (DecisionEngine.decide: image checks, Tesseract MRZ read, face sidecar) over an evaluation set, run
 * by {@code kyc-service/eval/run.sh} (skipped in the normal build). People: every face the detector finds on the six
 * face-api demo photos; each holds a specimen passport (portrait from their photo, capture varied) and takes a selfie
 * (a mirrored, brighter, wider crop of the same photo). Cases: same person, a different person, a corrupted MRZ, an
 * expired passport, two faces on the selfie, the portrait itself as the selfie (straight and mirrored), the passport
 * photographed off a screen, an identity card (front and TD1 back; valid and corrupted). Prints per check passed / failed /
 * inconclusive / not performed, the false accepts and false rejects, the time per decision (p50, p95), and the
 * descriptor distances of every same-person and different-person pair, the screen captures caught and the ordinary
 * photos taken for one. Asserts only: no false accept (the mirrored portrait, a known gap, is counted apart), no ordinary
 * photo taken for a screen capture.
 */
@QuarkusTest
@WithTestResource(FaceSidecarResource.class)
@EnabledIfSystemProperty(named = "kycEvaluation", matches = "true", disabledReason = "run with -DkycEvaluation=true (kyc-service/eval/run.sh)")
class FaceEvaluation {

    record Case(String kind, String expected, Evidence evidence) { }

    static final String TWO_FACES = "two faces on selfie";
    static final String MIRRORED = "mirrored portrait as selfie";
    static final String SCREEN = "passport off a screen";
    static final String UNREADABLE_CARD = "identity card, no MRZ on the back";

    @Inject
    DecisionEngine engine;

    @Inject
    KycSettings settings;

    @Test
    void evaluate() throws Exception {
        String url = FaceSidecarResource.require();
        FaceSidecar detector = FaceSidecarResource.detector(url, FaceSidecarResource.secret());
        List<FacePhotos.Person> people = new ArrayList<>();
        for (int sample = 1; sample <= FacePhotos.ASTRONAUT; sample++) {
            for (FaceMatcher.Face f : detector.faces(FacePhotos.photo(sample))) {
                people.add(new FacePhotos.Person(sample, f.x(), f.y(), f.width(), f.height()));
            }
        }
        Documents.Capture[] captures = {Documents.Capture.CLEAN, new Documents.Capture(0, 0, 0, 0.8f), new Documents.Capture(1.5, 0, 0, 0.8f),
                new Documents.Capture(0, 1, 0, 0.8f), new Documents.Capture(0, 0, 0.25f, 0.8f), new Documents.Capture(-2, 0, 0, 0.6f)};
        LocalDate today = LocalDate.of(2026, 11, 23);
        List<Case> cases = new ArrayList<>();
        int n = people.size();
        for (int i = 0; i < n; i++) {
            FacePhotos.Person p = people.get(i);
            Documents.Capture capture = captures[i % captures.length];
            byte[] document = passport(p, "310101", false, capture);
            byte[] selfie = Documents.png(FacePhotos.selfie(p));
            cases.add(new Case("same person", "verified", evidence(document, selfie, today)));
            cases.add(new Case("different person", "rejected", evidence(document, Documents.png(FacePhotos.selfie(people.get((i + 1) % n))), today)));
            if (i % 4 == 0) {
                cases.add(new Case("corrupted MRZ", "retry_required", evidence(passport(p, "310101", true, capture), selfie, today)));
                cases.add(new Case("expired passport", "rejected", evidence(passport(p, "200101", false, capture), selfie, today)));
            }
            if (i % 4 == 1) {
                cases.add(new Case(TWO_FACES, "retry_required",
                        evidence(document, Documents.png(FacePhotos.together(p, people.get((i + 5) % n))), today)));
            }
            BufferedImage portrait = FacePhotos.portrait(p);
            if (i % 4 == 2) {
                BufferedImage copy = FacePhotos.crop(portrait, portrait.getWidth() / 2.0, portrait.getHeight() / 2.0, portrait.getWidth(),
                        portrait.getHeight(), false, 1f, 520);
                cases.add(new Case("portrait as selfie", "rejected", evidence(document, Documents.png(copy), today)));
            }
            if (i % 4 == 3) {
                BufferedImage mirrored = FacePhotos.crop(portrait, portrait.getWidth() / 2.0, portrait.getHeight() / 2.0, portrait.getWidth(),
                        portrait.getHeight(), true, 1f, 520);
                cases.add(new Case(MIRRORED, "rejected", evidence(document, Documents.png(mirrored), today)));
                String mrz = Documents.td3("HTI", "HX4271839", "900101", 'F', "310101", "BAPTISTE", "WIDLINE", false);
                byte[] offScreen = Documents.offScreen(Documents.passport(mrz, portrait), 2.3 + 0.2 * (i % 5), (i % 3) - 1.0, 0.85f);
                cases.add(new Case(SCREEN, "retry_required", evidence(offScreen, selfie, today)));
            }
            if (i % 3 == 0) {
                cases.add(new Case("identity card, same person", "verified", new Evidence("national_id", "HT",
                        FacePhotos.cardFront(p, capture), FacePhotos.cardBack("310101", false, capture), selfie, null, today)));
            }
            if (i % 3 == 1) {
                byte[] front = FacePhotos.cardFront(p, capture);
                cases.add(new Case(UNREADABLE_CARD, "retry_required", new Evidence("national_id", "HT", front, front, selfie, null, today)));
            }
            if (i % 6 == 3) {
                cases.add(new Case("identity card, corrupted TD1", "retry_required", new Evidence("national_id", "HT",
                        FacePhotos.cardFront(p, capture), FacePhotos.cardBack("310101", true, capture), selfie, null, today)));
            }
        }

        Map<String, int[]> perCheck = new TreeMap<>();
        Map<String, Map<String, Integer>> perKind = new LinkedHashMap<>();
        List<Long> millis = new ArrayList<>();
        Map<String, List<Long>> millisPerDocument = new TreeMap<>();
        int falseAccepts = 0;
        int falseRejects = 0;
        int secondFaceMissed = 0;
        int mirroredVerified = 0;
        int screenExamined = 0;
        int screenFlaggedOrdinary = 0;
        int screenCaught = 0;
        int screenCases = 0;
        for (Case c : cases) {
            long start = System.nanoTime();
            DecisionEngine.Outcome outcome = engine.decide(c.evidence(), Instant.parse("2026-11-23T12:00:00Z"));
            long took = (System.nanoTime() - start) / 1_000_000;
            millis.add(took);
            millisPerDocument.computeIfAbsent(!c.evidence().documentType().equals("national_id") ? "passport"
                    : c.kind().equals(UNREADABLE_CARD) ? "national id, MRZ not readable" : "national id, MRZ readable", k -> new ArrayList<>()).add(took);
            var checks = outcome.result().path("checks");
            String screen = checks.path("document").path("screen_capture").path("status").asText("");
            if (c.kind().equals(SCREEN)) {
                screenCases++;
                screenCaught += "failed".equals(screen) ? 1 : 0;
            } else if (!screen.isEmpty()) {
                screenExamined++;
                screenFlaggedOrdinary += "failed".equals(screen) ? 1 : 0;
            }
            for (String check : List.of("document", "mrz", "face")) {
                int[] counts = perCheck.computeIfAbsent(check, k -> new int[4]);
                counts[List.of("passed", "failed", "inconclusive", "not_performed").indexOf(checks.path(check).path("status").asText())]++;
            }
            String got = outcome.status() + (outcome.reasonCodes().isEmpty() ? "" : " " + outcome.reasonCodes().get(0));
            perKind.computeIfAbsent(c.kind(), k -> new TreeMap<>()).merge(got, 1, Integer::sum);
            if ("verified".equals(outcome.status()) && !"verified".equals(c.expected())) {
                if (c.kind().equals(TWO_FACES)) {
                    secondFaceMissed++; // the holder's face matched; the model found no second face on the picture
                } else if (c.kind().equals(MIRRORED)) {
                    mirroredVerified++; // a known gap: a mirrored copy of the portrait is not caught (README)
                } else {
                    falseAccepts++;
                }
            }
            if ("verified".equals(c.expected()) && !"verified".equals(outcome.status())) {
                falseRejects++;
            }
        }

        // every pair's descriptor distance (the portrait as the document shows it, the selfie), for the thresholds
        // and whether the selfie face has the detail a match needs, as the face check asks (FaceCheck.detail)
        List<FaceMatcher.Face> portraits = new ArrayList<>();
        List<FaceMatcher.Face> selfies = new ArrayList<>();
        List<Double> selfieDetail = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            portraits.add(largest(detector, passport(people.get(i), "310101", false, captures[i % captures.length])));
            BufferedImage selfie = ImageIO.read(new ByteArrayInputStream(Documents.png(FacePhotos.selfie(people.get(i)))));
            FaceMatcher.Face found = largest(detector, selfie);
            selfies.add(found);
            selfieDetail.add(found == null ? Double.NaN : FaceCheck.detail(selfie, found));
        }
        KycSettings.Face face = settings.face();
        FaceScore score = new FaceScore(FaceCohort.bundled(), face.cohortNearest(), face.descriptorWeight());
        List<Double> same = new ArrayList<>();
        List<Double> different = new ArrayList<>();
        List<String> matched = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (portraits.get(i) != null && selfies.get(j) != null) {
                    double alike = score.of(portraits.get(i), selfies.get(j));
                    (i == j ? same : different).add(alike);
                    if (i != j && alike < face.matchBelow()) {
                        matched.add(String.format("portrait %s / selfie %s: %.3f, selfie detail %.2f (%s)", people.get(i), people.get(j), alike,
                                selfieDetail.get(j), selfieDetail.get(j) >= face.selfieDetailFrom() ? "verified" : "not verified: too little detail"));
                    }
                }
            }
        }
        List<Double> sortedDetail = selfieDetail.stream().filter(d -> !d.isNaN()).sorted().toList();
        Collections.sort(millis);
        Collections.sort(same);
        Collections.sort(different);
        KycSettings.Face bounds = settings.face();
        System.out.printf("Live pipeline evaluation: %d people (faces on the 6 face-api demo photos and the astronaut photo), %d decisions%n",
                n, cases.size());
        System.out.println("per check        passed  failed  inconclusive  not_performed");
        perCheck.forEach((k, c) -> System.out.printf("%-14s  %7d  %6d  %12d  %13d%n", k, c[0], c[1], c[2], c[3]));
        System.out.println("per case: outcome (main reason) x count");
        perKind.forEach((k, m) -> System.out.printf("  %-20s %s%n", k, m));
        System.out.printf("false accepts (verified: another person, a corrupted or expired document, the portrait as selfie, a screen capture): %d;"
                + " false rejects (same person, valid document, not verified): %d%n", falseAccepts, falseRejects);
        System.out.printf("mirrored portrait as selfie verified (not caught, a known gap): %d%n", mirroredVerified);
        System.out.printf("screen capture: caught %d of %d photos off a screen; flagged on ordinary photos (false positives): %d of %d%n",
                screenCaught, screenCases, screenFlaggedOrdinary, screenExamined);
        System.out.printf("two-face selfies verified because the model found no second face (the holder's face matched): %d%n", secondFaceMissed);
        System.out.printf("time per decision (selfie received to decision): p50 %d ms, p95 %d ms (%d cores)%n", millis.get(millis.size() / 2),
                millis.get((int) Math.ceil(millis.size() * 0.95) - 1), Runtime.getRuntime().availableProcessors());
        millisPerDocument.forEach((k, v) -> {
            Collections.sort(v);
            System.out.printf("  %-30s %3d decisions: p50 %d ms, p95 %d ms, max %d ms%n", k, v.size(), v.get(v.size() / 2),
                    v.get((int) Math.ceil(v.size() * 0.95) - 1), v.get(v.size() - 1));
        });
        System.out.printf("face score, same person (%d pairs): min %.3f median %.3f max %.3f%n", same.size(), same.get(0),
                same.get(same.size() / 2), same.get(same.size() - 1));
        System.out.printf("face score, different people (%d pairs): min %.3f p5 %.3f median %.3f; below match bound %.2f: %d,"
                        + " in the grey zone up to %.2f: %d%n", different.size(), different.get(0), different.get(different.size() / 20),
                different.get(different.size() / 2), bounds.matchBelow(), different.stream().filter(d -> d < bounds.matchBelow()).count(),
                bounds.mismatchFrom(), different.stream().filter(d -> d >= bounds.matchBelow() && d < bounds.mismatchFrom()).count());
        Assertions.assertEquals(0, falseAccepts, "a verification was accepted that should not have been");
        Assertions.assertEquals(0, screenFlaggedOrdinary, "an ordinary photo was taken for a screen capture");
        Assertions.assertEquals(0, perKind.get("different person").getOrDefault("verified", 0), "two people were verified as one");
        System.out.printf("selfie detail (%d selfies): min %.2f, median %.2f, max %.2f; below %.2f (a match is not verified): %d%n", sortedDetail.size(),
                sortedDetail.get(0), sortedDetail.get(sortedDetail.size() / 2), sortedDetail.get(sortedDetail.size() - 1), bounds.selfieDetailFrom(),
                sortedDetail.stream().filter(d -> d < bounds.selfieDetailFrom()).count());
        matched.forEach(m -> System.out.println("different people below the match bound: " + m));
        Assertions.assertEquals(0, matched.stream().filter(m -> m.endsWith("(verified)")).count(), "two people's faces matched");
    }

    private static byte[] passport(FacePhotos.Person p, String expiry, boolean breakChecksum, Documents.Capture capture) {
        return FacePhotos.passport(p, expiry, breakChecksum, capture);
    }

    private static Evidence evidence(byte[] document, byte[] selfie, LocalDate today) {
        return new Evidence("passport", "HT", document, null, selfie, null, today);
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, byte[] image) throws Exception {
        return largest(detector, ImageIO.read(new ByteArrayInputStream(image)));
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, BufferedImage image) {
        List<FaceMatcher.Face> faces = detector.faces(image);
        return faces.isEmpty() ? null : faces.get(0);
    }
}
