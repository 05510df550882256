package ht.platform.kyc.eval;

import ht.platform.kyc.provider.MrzReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The MRZ read on documents this project did not draw: the specimen passports and identity cards that PassportEye
 * (GitHub konstantint/PassportEye, MIT, commit d866f1b) keeps as its test data, copied to {@code kyc-service/eval/specimens}
 * (photos and scans of states' specimen documents, no real holder). Prints, per image, what the reader gives: read
 * (every check digit holds), checksum_failed or unreadable, and the document number. The ICAO 9303 specimen of
 * Utopia (ANNA MARIA ERIKSSON, L898902C3) must be read with its published values wherever it is read. Another folder:
 * {@code -DargLine=-Dspecimens=DIR}.
 */
class SpecimenEvaluation {

    @Test
    void evaluate() throws IOException {
        Assumptions.assumeTrue(Boolean.getBoolean("kycEvaluation"), "run with -DkycEvaluation=true (kyc-service/eval/run.sh)");
        Path dir = Path.of(System.getProperty("specimens", "eval/specimens"));
        MrzReader reader = new MrzReader("tesseract", Duration.ofSeconds(60));
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        int read = 0;
        for (Path f : files) {
            long start = System.nanoTime();
            MrzReader.Reading r = reader.read(Files.readAllBytes(f), LocalDate.of(2026, 11, 24));
            long ms = (System.nanoTime() - start) / 1_000_000;
            String number = r.data() == null ? "" : r.data().documentNumber();
            System.out.printf("%-22s %-16s %-5s %-12s %5d ms%n", f.getFileName(), r.status(), r.format() == null ? "" : r.format(),
                    number, ms);
            if (r.status() == MrzReader.Status.read) {
                read++;
                if (f.getFileName().toString().contains("uto") || f.getFileName().toString().startsWith("passport-td3")) {
                    assertEquals("L898902C3", number, f.toString());
                }
            }
        }
        System.out.printf("specimens read with every check digit: %d of %d%n", read, files.size());
    }
}
