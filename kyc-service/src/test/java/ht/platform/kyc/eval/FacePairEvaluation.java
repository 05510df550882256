package ht.platform.kyc.eval;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.Scenes;
import ht.platform.kyc.provider.FaceMatcher;
import ht.platform.kyc.provider.FaceSidecar;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The face thresholds on genuine pairs, run by {@code kyc-service/eval/run.sh} (skipped in the normal build): the first
 * photo of a person is printed as the passport portrait, the passport photographed (level; turned ±3° on dark wood and on
 * a cluttered desk; JPEG 0.7-0.9), and a different photograph of that person is the selfie. Genuine: the two different
 * photographs of Paul Rudd of the test resources (faces/README.md; each way round). Impostors: every portrait against every
 * other person's selfie (the openly licensed portraits and the faces of the face-api demo photos and the astronaut).
 * Prints the distances and, at the configured bounds (kyc.face.match-below / mismatch-from), the genuine pairs verified,
 * asked to retry (face_match_inconclusive) and rejected, and the impostor pairs accepted. Asserts no impostor accepted.
 */
class FacePairEvaluation {

    static final double MATCH_BELOW = bound("kyc.face.match-below");
    static final double MISMATCH_FROM = bound("kyc.face.mismatch-from");

    /** The bound as configured (application.properties), or as given with -D to try another. */
    private static double bound(String key) {
        java.util.Properties config = new java.util.Properties();
        try (var in = FacePairEvaluation.class.getResourceAsStream("/application.properties")) {
            config.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return Double.parseDouble(System.getProperty(key, config.getProperty(key)));
    }

    /** One person: who (two entries of one person share it), the portrait's photo, a second photo (null: none). */
    record Person(String who, String name, BufferedImage first, BufferedImage second, boolean sameSource) { }

    @Test
    void evaluate() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("kycEvaluation"), "run with -DkycEvaluation=true (kyc-service/eval/run.sh)");
        String token = FaceSidecarResource.newToken();
        FaceSidecarResource sidecar = FaceSidecarResource.started(Map.of("FACE_SIDECAR_TOKEN", token));
        try {
            URI base = URI.create(sidecar.base());
            FaceSidecar detector = new FaceSidecar(base, FaceSidecar.secret(Optional.of(token), Optional.empty(), base), Duration.ofSeconds(60), 1024);
            evaluate(detector);
        } finally {
            sidecar.stop();
        }
    }

    private void evaluate(FaceSidecar detector) throws Exception {
        List<Person> people = new ArrayList<>();
        people.add(new Person("paul", "Paul Rudd", FacePhotos.resource("max-Paul.jpeg"), FacePhotos.resource("max-Paul2.jpeg"), false));
        people.add(new Person("paul", "Paul Rudd (reversed)", FacePhotos.resource("max-Paul2.jpeg"), FacePhotos.resource("max-Paul.jpeg"), false));
        people.add(new Person("chris", "Chris Pratt", FacePhotos.resource("max-Chris.jpeg"), null, false));
        people.add(new Person("bryan", "Bryan (CODAIT)", FacePhotos.resource("max-Bryan.png"), null, false));
        people.add(new Person("luciano", "Luciano (CODAIT)", FacePhotos.resource("max-Luciano.png"), null, false));
        for (int sample = 1; sample <= FacePhotos.ASTRONAUT; sample++) {
            for (FaceMatcher.Face f : detector.faces(FacePhotos.photo(sample))) {
                FacePhotos.Person p = new FacePhotos.Person(sample, f.x(), f.y(), f.width(), f.height());
                String name = "photo " + sample + " face at " + f.x();
                people.add(new Person(name, name, FacePhotos.portrait(p), FacePhotos.selfie(p), true));
            }
        }
        // each selfie's face once: the genuine one is the person's second photograph, an impostor's their own picture
        Map<Person, FaceMatcher.Face> selfies = new java.util.HashMap<>();
        for (Person p : people) {
            BufferedImage selfie = p.second() != null ? p.second() : p.first();
            FaceMatcher.Face face = largest(detector, selfie);
            if (face != null) {
                selfies.put(p, face);
            }
        }
        String[] captures = {"level", "dark_wood +3", "cluttered_desk -3"};
        List<Double> genuine = new ArrayList<>();
        List<Double> impostor = new ArrayList<>();
        List<Double> sameSource = new ArrayList<>();
        long seed = 3;
        for (Person holder : people) {
            BufferedImage page = FacePhotos.passportPage(holder.first());
            for (String capture : captures) {
                byte[] photo = capture.equals("level") ? Documents.photograph(page, new Documents.Capture(0, 0, 0, 0.9f))
                        : Scenes.photograph(page, Scenes.Surface.valueOf(capture.split(" ")[0]),
                        Scenes.Pose.turned(Double.parseDouble(capture.split(" ")[1])), false, 0.7f + 0.1f * (seed % 3), seed++);
                FaceMatcher.Face portrait = largest(detector, ImageIO.read(new ByteArrayInputStream(photo)));
                if (portrait == null) {
                    System.out.println("no portrait found: " + holder.name() + " " + capture);
                    continue;
                }
                for (Person other : people) {
                    boolean samePerson = other.who().equals(holder.who());
                    FaceMatcher.Face face = selfies.get(other);
                    if (face == null || (samePerson && (other != holder || holder.second() == null))) {
                        continue;
                    }
                    double d = portrait.distance(face);
                    if (samePerson && holder.sameSource()) {
                        sameSource.add(d);
                    } else if (samePerson) {
                        genuine.add(d);
                        System.out.printf("genuine pair %s, passport %s: distance %.3f%n", holder.name(), capture, d);
                    } else if (capture.equals("level") && !(holder.who().equals("paul") && holder.name().contains("reversed"))) {
                        impostor.add(d);
                    }
                }
            }
        }
        Collections.sort(impostor);
        Collections.sort(sameSource);
        long verified = genuine.stream().filter(d -> d < MATCH_BELOW).count();
        long retry = genuine.stream().filter(d -> d >= MATCH_BELOW && d < MISMATCH_FROM).count();
        long rejected = genuine.size() - verified - retry;
        long accepted = impostor.stream().filter(d -> d < MATCH_BELOW).count();
        long impostorRetry = impostor.stream().filter(d -> d >= MATCH_BELOW && d < MISMATCH_FROM).count();
        System.out.printf("Face pair evaluation (%s): %d people, bounds: match below %.2f, mismatch from %.2f%n", LocalDate.now(),
                people.size() - 1, MATCH_BELOW, MISMATCH_FROM);
        System.out.printf("genuine pairs (two different photographs of one person): %d; verified %d, retry (face_match_inconclusive) %d,"
                + " rejected (false reject) %d%n", genuine.size(), verified, retry, rejected);
        System.out.printf("impostor pairs (portrait vs another person's selfie): %d; accepted (false accept) %d, retry %d; min %.3f p5 %.3f median %.3f%n",
                impostor.size(), accepted, impostorRetry, impostor.get(0), impostor.get(impostor.size() / 20), impostor.get(impostor.size() / 2));
        System.out.printf("same photograph, other crop (not genuine pairs, for reference): %d; min %.3f median %.3f max %.3f%n", sameSource.size(),
                sameSource.get(0), sameSource.get(sameSource.size() / 2), sameSource.get(sameSource.size() - 1));
        genuine.sort(null);
        System.out.printf("genuine distances: %s; impostors below %.2f: %s%n", genuine, MISMATCH_FROM,
                impostor.stream().filter(d -> d < MISMATCH_FROM).map(d -> String.format("%.3f", d)).toList());
        Assertions.assertEquals(0, accepted, "an impostor pair was accepted");
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, BufferedImage image) {
        List<FaceMatcher.Face> faces = detector.faces(image);
        return faces.isEmpty() ? null : faces.get(0);
    }
}
