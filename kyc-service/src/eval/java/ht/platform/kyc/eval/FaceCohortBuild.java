package ht.platform.kyc.eval;

import ht.platform.kyc.Documents;
import ht.platform.kyc.FaceSidecarResource;
import ht.platform.kyc.provider.FaceCohort;
import ht.platform.kyc.provider.FaceMatcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the face score's impostor cohort: both descriptors of the two photographs (neutral, smiling) of each of the
 * 102 people of the Face Research Lab London Set (eval/faces/london, CC BY 4.0), through the real sidecar as a selfie
 * goes (JPEG 0.9). Run by {@code EVAL=FaceCohortBuild eval/run.sh} when the sidecar's models change. It writes
 * {@code -Dcohort.out} (default {@code kyc-service/target/eval/cohort.bin}), never the source tree: copying it over
 * {@code src/main/resources/faces/cohort.bin} is a reviewed change, and FacePairEvaluation then recalibrates the bounds.
 */
class FaceCohortBuild {

    @Test
    void build() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("kycEvaluation"), "run with -DkycEvaluation=true (kyc-service/eval/run.sh)");
        FaceSidecarResource.withOwnDetector(detector -> {
            List<FaceCohort.Member> members = new ArrayList<>();
            try (var files = Files.list(FacePairEvaluation.FACES.resolve("london"))) {
                for (Path photo : files.filter(f -> f.toString().endsWith(".jpg")).sorted().toList()) {
                    var image = ImageIO.read(new ByteArrayInputStream(Documents.jpeg(ImageIO.read(photo.toFile()), 0.9f)));
                    List<FaceMatcher.Face> faces = detector.faces(image);
                    if (faces.isEmpty()) {
                        System.out.println("no face: " + photo);
                        continue;
                    }
                    int person = Integer.parseInt(photo.getFileName().toString().substring(0, 3));
                    members.add(new FaceCohort.Member(person, faces.get(0).descriptor(), faces.get(0).embedding()));
                }
            }
            Path out = Path.of(System.getProperty("cohort.out", "target/eval/cohort.bin"));
            Files.createDirectories(out.getParent());
            try (OutputStream o = Files.newOutputStream(out)) {
                new FaceCohort(members).write(o);
            }
            System.out.println("face cohort: " + members.size() + " faces written to " + out.toAbsolutePath());
        });
    }
}
