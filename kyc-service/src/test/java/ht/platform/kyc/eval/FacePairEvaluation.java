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
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The face thresholds on genuine pairs, run by {@code kyc-service/eval/run.sh} (skipped in the normal build): the first
 * photo of a person is printed as the passport portrait, the passport photographed level and once as a phone would
 * (turned ±3° or ±5° on dark wood or a cluttered desk, JPEG 0.7-0.9), and a different photograph of that person is the
 * selfie. Genuine: the 102 people of the Face Research Lab London Set (neutral and smiling, each way round), Lisa
 * DeBruine's photographs of two different days (eval/faces, see eval/README.md) and the two photographs of Paul Rudd
 * (test resources, faces/README.md). Impostors: every level portrait against every other person's selfie (also the
 * single-photo portraits and the faces of the face-api demo photos and the astronaut). Prints, at the configured bounds
 * (kyc.face.match-below / mismatch-from, or -D to try others), the genuine pairs verified, asked to retry
 * (face_match_inconclusive) and rejected, the impostor pairs accepted, and what other bounds would give. Asserts no
 * impostor accepted and at most 5 % of genuine pairs rejected.
 */
class FacePairEvaluation {

    static final double MATCH_BELOW = bound("kyc.face.match-below");
    static final double MISMATCH_FROM = bound("kyc.face.mismatch-from");
    static final Path FACES = Path.of(System.getProperty("faces", "eval/faces"));

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

    /**
     * One passport holder: who (entries of one person share it), the portrait's photo, a different photo of them as the
     * selfie (null: none), whether the selfie is only another crop of the portrait's photo, and whether this entry repeats
     * a pair the other way round (not counted again among impostors).
     */
    record Person(String who, String name, BufferedImage first, BufferedImage second, boolean sameSource, boolean reversed) { }

    /** A distance between a passport portrait and a selfie, and how the passport was photographed. */
    record Pair(String holder, String capture, double distance) { }

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

    private static List<Person> people(FaceSidecar detector) throws IOException {
        List<Person> people = new ArrayList<>();
        pairBothWays(people, "paul", "Paul Rudd", FacePhotos.resource("max-Paul.jpeg"), FacePhotos.resource("max-Paul2.jpeg"));
        try (var files = Files.list(FACES.resolve("london"))) {
            for (Path neutral : files.filter(f -> f.getFileName().toString().endsWith("_03.jpg")).sorted().toList()) {
                String id = neutral.getFileName().toString().substring(0, 3);
                pairBothWays(people, "london " + id, "London " + id, read(neutral), read(FACES.resolve("london/" + id + "_08.jpg")));
            }
        }
        String[][] lisa = {{"lisa1", "15cm"}, {"lisa2", "30cm"}, {"45cm", "lisa3"}, {"60cm", "lisa4"}};
        for (String[] pair : lisa) {
            people.add(new Person("lisa", "Lisa " + pair[0] + " / " + pair[1], read(FACES.resolve("lisa/" + pair[0] + ".jpg")),
                    read(FACES.resolve("lisa/" + pair[1] + ".jpg")), false, false));
        }
        people.add(new Person("chris", "Chris Pratt", FacePhotos.resource("max-Chris.jpeg"), null, false, false));
        people.add(new Person("bryan", "Bryan (CODAIT)", FacePhotos.resource("max-Bryan.png"), null, false, false));
        people.add(new Person("luciano", "Luciano (CODAIT)", FacePhotos.resource("max-Luciano.png"), null, false, false));
        for (int sample = 1; sample <= FacePhotos.ASTRONAUT; sample++) {
            for (FaceMatcher.Face f : detector.faces(FacePhotos.photo(sample))) {
                FacePhotos.Person p = new FacePhotos.Person(sample, f.x(), f.y(), f.width(), f.height());
                String name = "photo " + sample + " face at " + f.x();
                people.add(new Person(name, name, FacePhotos.portrait(p), FacePhotos.selfie(p), true, false));
            }
        }
        return people;
    }

    private static void pairBothWays(List<Person> people, String who, String name, BufferedImage one, BufferedImage other) {
        people.add(new Person(who, name, one, other, false, false));
        people.add(new Person(who, name + " (reversed)", other, one, false, true));
    }

    private void evaluate(FaceSidecar detector) throws Exception {
        long began = System.nanoTime();
        List<Person> people = people(detector);
        // each selfie's face once: the genuine one is the person's second photograph, an impostor's their own picture
        Map<Person, FaceMatcher.Face> selfies = new java.util.HashMap<>();
        for (Person p : people) {
            FaceMatcher.Face face = largest(detector, p.second() != null ? p.second() : p.first());
            if (face != null) {
                selfies.put(p, face);
            } else {
                System.out.println("no face found on the selfie of " + p.name());
            }
        }
        String[] phoneCaptures = {"dark_wood +3", "cluttered_desk -3", "dark_wood -5", "cluttered_desk +5"};
        List<Pair> genuine = new ArrayList<>();
        List<Double> impostor = new ArrayList<>();
        List<Pair> closestImpostors = new ArrayList<>();
        List<Pair> sameSource = new ArrayList<>();
        int missedPortraits = 0;
        long seed = 3;
        for (Person holder : people) {
            BufferedImage page = FacePhotos.passportPage(holder.first());
            for (String capture : new String[] {"level", phoneCaptures[(int) (seed % phoneCaptures.length)]}) {
                byte[] photo = capture.equals("level") ? Documents.photograph(page, new Documents.Capture(0, 0, 0, 0.9f))
                        : Scenes.photograph(page, Scenes.Surface.valueOf(capture.split(" ")[0]),
                        Scenes.Pose.turned(Double.parseDouble(capture.split(" ")[1])), false, 0.7f + 0.1f * (seed % 3), seed++);
                FaceMatcher.Face portrait = largest(detector, ImageIO.read(new ByteArrayInputStream(photo)));
                if (portrait == null) {
                    missedPortraits++;
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
                        sameSource.add(new Pair(holder.name(), capture, d));
                    } else if (samePerson) {
                        genuine.add(new Pair(holder.name(), capture.equals("level") ? "level" : "phone", d));
                    } else if (capture.equals("level") && !holder.reversed()) {
                        impostor.add(d);
                        if (d < MISMATCH_FROM) {
                            closestImpostors.add(new Pair(holder.name() + " vs " + other.name(), capture, d));
                        }
                    }
                }
            }
        }
        Collections.sort(impostor);
        sameSource.sort(java.util.Comparator.comparingDouble(Pair::distance));
        List<Double> genuineDistances = genuine.stream().map(Pair::distance).sorted().toList();
        long people1 = people.stream().filter(p -> !p.reversed()).map(Person::who).distinct().count();
        long twoPhotos = people.stream().filter(p -> p.second() != null && !p.sameSource()).map(Person::who).distinct().count();
        System.out.printf("Face pair evaluation (%s, %.0f s): %d people, %d of them with two different photographs; bounds: match below %.2f,"
                + " mismatch from %.2f; portraits not found on the passport photo: %d%n", LocalDate.now(), (System.nanoTime() - began) / 1e9,
                people1, twoPhotos, MATCH_BELOW, MISMATCH_FROM, missedPortraits);
        for (String capture : new String[] {"level", "phone"}) {
            List<Double> ds = genuine.stream().filter(p -> p.capture().equals(capture)).map(Pair::distance).toList();
            System.out.printf("genuine pairs, passport %s: %d; verified %d, retry (face_match_inconclusive) %d, rejected (false reject) %d%n",
                    capture, ds.size(), ds.stream().filter(d -> d < MATCH_BELOW).count(),
                    ds.stream().filter(d -> d >= MATCH_BELOW && d < MISMATCH_FROM).count(), ds.stream().filter(d -> d >= MISMATCH_FROM).count());
        }
        long verified = genuineDistances.stream().filter(d -> d < MATCH_BELOW).count();
        long rejected = genuineDistances.stream().filter(d -> d >= MISMATCH_FROM).count();
        long accepted = impostor.stream().filter(d -> d < MATCH_BELOW).count();
        System.out.printf("genuine distances: p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, max %.3f%n", quantile(genuineDistances, 0.5),
                quantile(genuineDistances, 0.9), quantile(genuineDistances, 0.95), quantile(genuineDistances, 0.99),
                genuineDistances.get(genuineDistances.size() - 1));
        System.out.printf("impostor pairs (level portrait vs another person's selfie): %d; accepted (false accept) %d, retry %d;"
                + " min %.3f, p0.1 %.3f, p1 %.3f, median %.3f%n", impostor.size(), accepted,
                impostor.stream().filter(d -> d >= MATCH_BELOW && d < MISMATCH_FROM).count(), impostor.get(0), quantile(impostor, 0.001),
                quantile(impostor, 0.01), quantile(impostor, 0.5));
        closestImpostors.sort(java.util.Comparator.comparingDouble(Pair::distance));
        closestImpostors.subList(0, Math.min(8, closestImpostors.size()))
                .forEach(p -> System.out.printf("closest impostor: %s: %.3f%n", p.holder(), p.distance()));
        System.out.printf("same photograph, other crop (not genuine pairs, for reference): %d; min %.3f median %.3f max %.3f%n", sameSource.size(),
                sameSource.get(0).distance(), sameSource.get(sameSource.size() / 2).distance(), sameSource.get(sameSource.size() - 1).distance());
        sameSource.stream().filter(p -> p.distance() >= MATCH_BELOW - 0.05)
                .forEach(p -> System.out.printf("same photograph near the bound: %s, passport %s: %.3f%n", p.holder(), p.capture(), p.distance()));
        System.out.println("match below | genuine verified | impostors accepted");
        for (int t = 40; t <= 58; t += 2) {
            double bound = t / 100.0;
            System.out.printf("       %.2f | %5.1f %% | %d%n", bound, 100.0 * genuineDistances.stream().filter(d -> d < bound).count() / genuineDistances.size(),
                    impostor.stream().filter(d -> d < bound).count());
        }
        genuine.stream().filter(p -> p.distance() >= MATCH_BELOW).sorted(java.util.Comparator.comparingDouble(Pair::distance))
                .forEach(p -> System.out.printf("not verified: %s, passport %s: %.3f%n", p.holder(), p.capture(), p.distance()));
        Assertions.assertEquals(0, accepted, "an impostor pair was accepted");
        Assertions.assertTrue(rejected * 20 <= genuine.size(), "more than 5 % of genuine pairs rejected: " + rejected + " of " + genuine.size());
        Assertions.assertTrue(verified > 0);
    }

    private static double quantile(List<Double> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size())));
    }

    private static BufferedImage read(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        if (image == null) {
            throw new IOException("not an image: " + file);
        }
        return image;
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, BufferedImage image) {
        List<FaceMatcher.Face> faces = detector.faces(image);
        return faces.isEmpty() ? null : faces.get(0);
    }
}
