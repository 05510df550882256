package ht.platform.kyc.eval;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FacePhotos;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.Scenes;
import ht.platform.kyc.provider.FaceCheck;
import ht.platform.kyc.provider.FaceCohort;
import ht.platform.kyc.provider.FaceMatcher;
import ht.platform.kyc.provider.FaceScore;
import ht.platform.kyc.provider.FaceSidecar;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The face decision on photographs taken on different days and in one sitting, run by {@code kyc-service/eval/run.sh}
 * (skipped in the normal build). A genuine pair is two photographs of one person: the first is printed as the passport
 * portrait, the passport photographed level (JPEG 0.9) and once as a phone would (turned ±3° or ±5° on dark wood or a
 * cluttered desk, JPEG 0.7-0.9); the second is the selfie. Cross-day pairs: Lisa DeBruine's two sittings (CC0), Paul
 * Rudd's two photographs (test resources), and every pair of photographs of one person in the directory given by
 * {@code -Dfaces.crossday} (one folder per person; eval/README.md says which sets were used and why they are not
 * committed), each pair both ways. Same-sitting pairs: the London Set's neutral portrait against the smiling selfie.
 * Impostor pairs: every portrait (level and phone) against every other person's selfie; the faces cut from face-api's
 * group photos (small faces enlarged, not selfie quality) are counted apart. The face score leaves the pair's own people
 * out of the cohort (the London Set is the cohort; a customer is not in it). Prints, at the configured bounds (or -D),
 * the pairs verified, asked to retry and rejected, TAR at FAR 10⁻³ and 10⁻⁴, the score quantiles and what other bounds
 * would give. Asserts no impostor accepted.
 */
class FacePairEvaluation {

    static final Properties CONFIG = config();
    static final double MATCH_BELOW = bound("kyc.face.match-below");
    static final double MISMATCH_FROM = bound("kyc.face.mismatch-from");
    static final double DETAIL_FROM = bound("kyc.face.selfie-detail-from");
    static final Path FACES = Path.of(System.getProperty("faces", "eval/faces"));
    static final String[] PHONE = {"dark_wood +3", "cluttered_desk -3", "dark_wood -5", "cluttered_desk +5"};

    /** A photograph of someone: who, the cohort person it is (-1: not in the cohort), a label and the picture. */
    record Photo(String who, int cohortPerson, String label, BufferedImage image) { }

    /** A genuine pair: the portrait's photograph and the selfie's, and whether they were taken on different days. */
    record Genuine(Photo portrait, Photo selfie, boolean crossDay) { }

    /** A score between a passport portrait and a selfie, and the selfie face's detail (FaceCheck.detail). */
    record Scored(String pair, String kind, double score, double detail) {
        /** As the face check decides: a match needs the selfie's detail too. */
        boolean verified(double matchBelow, double detailFrom) {
            return score < matchBelow && detail >= detailFrom;
        }
    }

    private static Properties config() {
        Properties config = new Properties();
        try (var in = FacePairEvaluation.class.getResourceAsStream("/application.properties")) {
            config.load(in);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return config;
    }

    private static double bound(String key) {
        return Double.parseDouble(System.getProperty(key, CONFIG.getProperty(key)));
    }

    @Test
    void evaluate() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("kycEvaluation"), "run with -DkycEvaluation=true (kyc-service/eval/run.sh)");
        FaceSidecarResource.withOwnDetector(this::evaluate);
    }

    private void evaluate(FaceSidecar detector) throws Exception {
        long began = System.nanoTime();
        FaceScore score = new FaceScore(FaceCohort.bundled(), (int) bound("kyc.face.cohort-nearest"), bound("kyc.face.descriptor-weight"));
        List<Genuine> genuine = new ArrayList<>();
        List<Photo> singles = new ArrayList<>();
        people(genuine, singles);
        for (int sample = 1; sample <= FacePhotos.ASTRONAUT; sample++) {
            for (FaceMatcher.Face f : detector.faces(FacePhotos.photo(sample))) {
                String name = "photo " + sample + " face at " + f.x();
                singles.add(new Photo(name, -1, name, FacePhotos.portrait(new FacePhotos.Person(sample, f.x(), f.y(), f.width(), f.height()))));
            }
        }
        Map<Photo, FaceMatcher.Face> selfies = new HashMap<>();
        Map<Photo, FaceMatcher.Face> level = new HashMap<>();
        Map<Photo, FaceMatcher.Face> phone = new HashMap<>();
        int seed = 3;
        List<Photo> portraits = new ArrayList<>(genuine.stream().map(Genuine::portrait).distinct().toList());
        portraits.addAll(singles);
        for (Photo p : portraits) {
            BufferedImage page = FacePhotos.passportPage(p.image());
            put(level, p, largest(detector, Documents.photograph(page, new Documents.Capture(0, 0, 0, 0.9f))));
            String capture = PHONE[seed % PHONE.length];
            put(phone, p, largest(detector, Scenes.photograph(page, Scenes.Surface.valueOf(capture.split(" ")[0]),
                    Scenes.Pose.turned(Double.parseDouble(capture.split(" ")[1])), false, 0.7f + 0.1f * (seed % 3), seed++)));
        }
        List<Photo> selfiePhotos = new ArrayList<>(genuine.stream().map(Genuine::selfie).distinct().toList());
        selfiePhotos.addAll(singles);
        Map<Photo, Double> detail = new HashMap<>();
        for (Photo p : selfiePhotos) {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(Documents.jpeg(p.image(), 0.9f)));
            FaceMatcher.Face face = largest(detector, image);
            put(selfies, p, face);
            if (face != null) {
                detail.put(p, FaceCheck.detail(image, face));
            }
        }
        long detections = level.size() + phone.size() + selfies.size();
        String dump = System.getProperty("faces.dump");
        if (dump != null) {
            try (var out = Files.newBufferedWriter(Path.of(dump))) {
                for (var kind : List.of(Map.entry("level", level), Map.entry("phone", phone), Map.entry("selfie", selfies))) {
                    for (var e : kind.getValue().entrySet()) {
                        out.write(String.format("{\"kind\":\"%s\",\"who\":\"%s\",\"label\":\"%s\",\"cohort\":%d,\"d\":%s,\"e\":%s,\"w\":%d}%n",
                                kind.getKey(), e.getKey().who(), e.getKey().label(), e.getKey().cohortPerson(),
                                java.util.Arrays.toString(e.getValue().descriptor()), java.util.Arrays.toString(e.getValue().embedding()), e.getValue().width()));
                    }
                }
            }
        }
        List<Scored> scored = new ArrayList<>();
        for (Genuine g : genuine) {
            FaceMatcher.Face selfie = selfies.get(g.selfie());
            for (var capture : List.of(Map.entry("level", level), Map.entry("phone", phone))) {
                FaceMatcher.Face portrait = capture.getValue().get(g.portrait());
                if (portrait == null || selfie == null) {
                    System.out.println("no face: " + g.portrait().label() + " / " + g.selfie().label() + " (" + capture.getKey() + ")");
                    continue;
                }
                scored.add(new Scored(g.portrait().label() + " / " + g.selfie().label() + ", passport " + capture.getKey(),
                        g.crossDay() ? "cross-day" : "same sitting", score.of(portrait, selfie, excluding(g.portrait(), g.selfie())), detail.get(g.selfie())));
            }
        }
        List<Scored> impostors = new ArrayList<>();
        List<Scored> groupPhotoImpostors = new ArrayList<>();
        for (var capture : List.of(Map.entry("level", level), Map.entry("phone", phone))) {
            for (var p : capture.getValue().entrySet()) {
                for (var s : selfies.entrySet()) {
                    if (!p.getKey().who().equals(s.getKey().who())) {
                        Scored x = new Scored(p.getKey().label() + " (" + capture.getKey() + ") / " + s.getKey().label(), "impostor",
                                score.of(p.getValue(), s.getValue(), excluding(p.getKey(), s.getKey())), detail.get(s.getKey()));
                        (groupPhoto(p.getKey()) || groupPhoto(s.getKey()) ? groupPhotoImpostors : impostors).add(x);
                    }
                }
            }
        }
        impostors.sort(Comparator.comparingDouble(Scored::score));
        List<Double> imp = impostors.stream().map(Scored::score).toList();
        System.out.printf("Face pair evaluation (%s, %.0f s, %d detections): cohort %d faces, %d nearest, ResNet-34 weight %.2f;"
                + " bounds: match below %.2f, mismatch from %.2f, selfie detail from %.2f%n", LocalDate.now(), (System.nanoTime() - began) / 1e9,
                detections, score.cohort().size(), score.nearest(), score.descriptorWeight(), MATCH_BELOW, MISMATCH_FROM, DETAIL_FROM);
        printDetail(detail);
        double far3 = quantile(imp, 1e-3);
        double far4 = quantile(imp, 1e-4);
        System.out.println("| pairs | count | verified | retry (face_match_inconclusive) | rejected | TAR at FAR 1e-3 | TAR at FAR 1e-4 |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String kind : List.of("cross-day", "same sitting")) {
            for (String capture : List.of("level", "phone")) {
                List<Scored> pairs = scored.stream().filter(x -> x.kind().equals(kind) && x.pair().endsWith(capture)).toList();
                List<Double> s = pairs.stream().map(Scored::score).toList();
                long verified = verified(pairs, MATCH_BELOW, DETAIL_FROM);
                long rejected = s.stream().filter(d -> d >= MISMATCH_FROM).count();
                System.out.printf("| %s, passport %s | %d | %s | %d | %d | %.1f %% | %.1f %% |%n", kind, capture, s.size(), percent(verified, s.size()),
                        s.size() - verified - rejected, rejected, 100.0 * count(s, far3) / s.size(), 100.0 * count(s, far4) / s.size());
            }
        }
        long accepted = verified(impostors, MATCH_BELOW, DETAIL_FROM);
        long impostorsRejected = imp.stream().filter(d -> d >= MISMATCH_FROM).count();
        System.out.printf("| impostor (portrait, level or phone, vs another person's selfie) | %d | **%d** (false accepts) | %d | %d | | |%n", imp.size(), accepted,
                imp.size() - accepted - impostorsRejected, impostorsRejected);
        long groupAccepted = verified(groupPhotoImpostors, MATCH_BELOW, DETAIL_FROM);
        long groupRejected = groupPhotoImpostors.stream().filter(x -> x.score() >= MISMATCH_FROM).count();
        System.out.printf("| faces cut from the face-api group photos (small faces enlarged), against everyone | %d | **%d** (false accepts) | %d | %d | | |%n",
                groupPhotoImpostors.size(), groupAccepted, groupPhotoImpostors.size() - groupAccepted - groupRejected, groupRejected);
        for (String kind : List.of("cross-day", "same sitting")) {
            List<Double> s = scored.stream().filter(x -> x.kind().equals(kind)).map(Scored::score).sorted().toList();
            System.out.printf("%s scores: p50 %.2f, p90 %.2f, p95 %.2f, p99 %.2f, max %.2f%n", kind, quantile(s, 0.5), quantile(s, 0.9),
                    quantile(s, 0.95), quantile(s, 0.99), s.get(s.size() - 1));
        }
        System.out.printf("impostor scores: min %.2f, p0.01 %.2f (FAR 1e-4), p0.1 %.2f (FAR 1e-3), p1 %.2f, median %.2f%n", imp.get(0), far4, far3,
                quantile(imp, 0.01), quantile(imp, 0.5));
        impostors.subList(0, Math.min(6, impostors.size())).forEach(p -> System.out.printf("closest impostor: %s: %.2f (selfie detail %.2f)%n",
                p.pair(), p.score(), p.detail()));
        List<Scored> cross = scored.stream().filter(x -> x.kind().equals("cross-day")).toList();
        List<Scored> sitting = scored.stream().filter(x -> !x.kind().equals("cross-day")).toList();
        System.out.println("match below | cross-day verified | same sitting verified | impostors accepted | group-photo pairs accepted"
                + " (selfie detail from " + DETAIL_FROM + ")");
        for (double b = MATCH_BELOW - 1.0; b <= MATCH_BELOW + 1.01; b += 0.2) {
            System.out.printf("      %5.2f | %5.1f %% | %5.1f %% | %d | %d%n", b, 100.0 * verified(cross, b, DETAIL_FROM) / cross.size(),
                    100.0 * verified(sitting, b, DETAIL_FROM) / sitting.size(), verified(impostors, b, DETAIL_FROM), verified(groupPhotoImpostors, b, DETAIL_FROM));
        }
        System.out.println("selfie detail from | cross-day verified | same sitting verified | impostors accepted | group-photo pairs accepted"
                + " (match below " + MATCH_BELOW + ")");
        for (double d : new double[] {0, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.15, 1.2}) {
            System.out.printf("      %5.2f | %5.1f %% | %5.1f %% | %d | %d%n", d, 100.0 * verified(cross, MATCH_BELOW, d) / cross.size(),
                    100.0 * verified(sitting, MATCH_BELOW, d) / sitting.size(), verified(impostors, MATCH_BELOW, d), verified(groupPhotoImpostors, MATCH_BELOW, d));
        }
        scored.stream().filter(p -> !p.verified(MATCH_BELOW, DETAIL_FROM)).sorted(Comparator.comparingDouble(Scored::score))
                .forEach(p -> System.out.printf("not verified (%s): %s: %.2f, selfie detail %.2f%n", p.kind(), p.pair(), p.score(), p.detail()));
        groupPhotoImpostors.sort(Comparator.comparingDouble(Scored::score));
        System.out.printf("faces cut from the face-api group photos against everyone: %d pairs, %d below the match bound, %d of them verified"
                + " (selfie detail from %.2f); closest: %s%n", groupPhotoImpostors.size(),
                groupPhotoImpostors.stream().filter(x -> x.score() < MATCH_BELOW).count(), groupAccepted, DETAIL_FROM,
                groupPhotoImpostors.subList(0, Math.min(8, groupPhotoImpostors.size())).stream()
                        .map(x -> x.pair() + String.format(" %.2f (selfie detail %.2f)", x.score(), x.detail())).toList());
        Assertions.assertEquals(0, accepted, "an impostor pair was accepted");
        Assertions.assertEquals(0, groupAccepted, "a pair with a face cut from a group photo was accepted");
    }

    /** The people: genuine pairs of each kind and photographs of people with one photograph (impostors only). */
    private static void people(List<Genuine> genuine, List<Photo> singles) throws IOException {
        try (var files = Files.list(FACES.resolve("london"))) {
            for (Path neutral : files.filter(f -> f.getFileName().toString().endsWith("_03.jpg")).sorted().toList()) {
                String id = neutral.getFileName().toString().substring(0, 3);
                genuine.add(new Genuine(new Photo("london " + id, Integer.parseInt(id), "London " + id + " neutral", read(neutral)),
                        new Photo("london " + id, Integer.parseInt(id), "London " + id + " smiling", read(FACES.resolve("london/" + id + "_08.jpg"))),
                        false));
            }
        }
        List<Photo> one = new ArrayList<>();
        List<Photo> other = new ArrayList<>();
        for (String name : List.of("lisa1", "lisa2", "lisa3", "lisa4")) {
            one.add(new Photo("lisa", -1, "Lisa " + name, read(FACES.resolve("lisa/" + name + ".jpg"))));
        }
        for (String name : List.of("15cm", "30cm", "45cm", "60cm")) {
            other.add(new Photo("lisa", -1, "Lisa " + name, read(FACES.resolve("lisa/" + name + ".jpg"))));
        }
        bothWays(genuine, one, other);
        bothWays(genuine, List.of(new Photo("paul", -1, "Paul Rudd 1", FacePhotos.resource("max-Paul.jpeg"))),
                List.of(new Photo("paul", -1, "Paul Rudd 2", FacePhotos.resource("max-Paul2.jpeg"))));
        String crossDay = System.getProperty("faces.crossday");
        if (crossDay != null) {
            try (var people = Files.list(Path.of(crossDay))) {
                for (Path person : people.filter(Files::isDirectory).sorted().toList()) {
                    List<Photo> photos = new ArrayList<>();
                    try (var files = Files.list(person)) {
                        for (Path f : files.sorted().toList()) {
                            photos.add(new Photo(person.getFileName().toString(), -1, person.getFileName() + " " + f.getFileName(), read(f)));
                        }
                    }
                    if (photos.size() == 1) {
                        singles.add(photos.get(0));
                    }
                    for (int i = 0; i < photos.size(); i++) {
                        for (int j = i + 1; j < photos.size(); j++) {
                            bothWays(genuine, List.of(photos.get(i)), List.of(photos.get(j)));
                        }
                    }
                }
            }
        }
        singles.add(new Photo("chris", -1, "Chris Pratt", FacePhotos.resource("max-Chris.jpeg")));
        singles.add(new Photo("bryan", -1, "Bryan (CODAIT)", FacePhotos.resource("max-Bryan.png")));
        singles.add(new Photo("luciano", -1, "Luciano (CODAIT)", FacePhotos.resource("max-Luciano.png")));
    }

    private static void bothWays(List<Genuine> genuine, List<Photo> one, List<Photo> other) {
        for (Photo a : one) {
            for (Photo b : other) {
                genuine.add(new Genuine(a, b, true));
                genuine.add(new Genuine(b, a, true));
            }
        }
    }

    private static java.util.function.IntPredicate excluding(Photo a, Photo b) {
        return person -> person >= 0 && (person == a.cohortPerson() || person == b.cohortPerson());
    }

    private static boolean groupPhoto(Photo p) {
        return p.who().startsWith("photo ");
    }

    private static void put(Map<Photo, FaceMatcher.Face> faces, Photo photo, FaceMatcher.Face face) {
        if (face != null) {
            faces.put(photo, face);
        } else {
            System.out.println("no face found: " + photo.label());
        }
    }

    /** The selfie detail of every selfie face by set: the data the bound kyc.face.selfie-detail-from is chosen from. */
    private static void printDetail(Map<Photo, Double> detail) {
        Map<String, List<Map.Entry<Photo, Double>>> sets = new java.util.TreeMap<>();
        for (var e : detail.entrySet()) {
            sets.computeIfAbsent(groupPhoto(e.getKey()) ? "group-photo crop" : e.getKey().cohortPerson() >= 0 ? "London Set" : "cross-day and single",
                    k -> new ArrayList<>()).add(e);
        }
        sets.forEach((set, list) -> {
            list.sort(Map.Entry.comparingByValue());
            List<Double> v = list.stream().map(Map.Entry::getValue).toList();
            System.out.printf("selfie detail, %s (%d selfies): min %.2f, p5 %.2f, median %.2f, max %.2f; below %.2f: %d %s%n", set, v.size(), v.get(0),
                    quantile(v, 0.05), quantile(v, 0.5), v.get(v.size() - 1), DETAIL_FROM, v.stream().filter(d -> d < DETAIL_FROM).count(),
                    list.stream().filter(e -> e.getValue() < DETAIL_FROM || !set.equals("London Set") && e.getValue() < DETAIL_FROM + 0.3)
                            .map(e -> e.getKey().label() + String.format(" %.2f", e.getValue())).toList());
        });
    }

    private static long verified(List<Scored> pairs, double matchBelow, double detailFrom) {
        return pairs.stream().filter(p -> p.verified(matchBelow, detailFrom)).count();
    }

    private static long count(List<Double> scores, double below) {
        return scores.stream().filter(d -> d < below).count();
    }

    private static String percent(long n, int of) {
        return n + " (" + String.format("%.1f %%", 100.0 * n / Math.max(1, of)) + ")";
    }

    private static double quantile(List<Double> sorted, double q) {
        List<Double> s = sorted.stream().sorted().toList();
        return s.get(Math.min(s.size() - 1, (int) Math.floor(q * s.size())));
    }

    private static BufferedImage read(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        if (image == null) {
            throw new IOException("not an image: " + file);
        }
        return image;
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, byte[] photo) throws IOException {
        return largest(detector, ImageIO.read(new ByteArrayInputStream(photo)));
    }

    private static FaceMatcher.Face largest(FaceSidecar detector, BufferedImage image) {
        List<FaceMatcher.Face> faces = detector.faces(image);
        return faces.isEmpty() ? null : faces.get(0);
    }
}
