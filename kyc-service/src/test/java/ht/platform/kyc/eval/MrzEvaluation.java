package ht.platform.kyc.eval;

import ht.platform.kyc.Documents;
import ht.platform.kyc.provider.MrzReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MRZ check over an evaluation set, run by {@code kyc-service/eval/run.sh} (skipped in the normal build):
 * specimen passports (TD3) and identity card backs (TD1) rendered in OCR-B with valid, corrupted and expired MRZs,
 * photographed with rotation, blur, glare and JPEG quality varied. Prints per expected outcome how many were read,
 * found corrupted or unreadable, the false accepts (a corrupted MRZ read as valid) and false rejects (a valid MRZ not
 * read), and the time per read (p50, p95). Prints numbers; asserts only that no corrupted MRZ is accepted.
 */
class MrzEvaluation {

    record Case(String name, String mrz, boolean card, boolean valid) { }

    @Test
    void evaluate() {
        Assumptions.assumeTrue(Boolean.getBoolean("kycEvaluation"), "run with -DkycEvaluation=true (kyc-service/eval/run.sh)");
        LocalDate today = LocalDate.of(2026, 11, 23);
        MrzReader reader = new MrzReader("tesseract", Duration.ofSeconds(60));
        String[][] people = {{"BAPTISTE", "WIDLINE", "HX4271839", "900101", "F"}, {"JEAN<PIERRE", "MARC", "HA0031552", "881224", "M"},
                {"LOUIS", "ROSE<MARIE", "HB7720416", "010307", "F"}};
        List<Case> cases = new ArrayList<>();
        for (String[] p : people) {
            cases.add(new Case("td3 " + p[2], Documents.td3("HTI", p[2], p[3], p[4].charAt(0), "310101", p[0], p[1], false), false, true));
            cases.add(new Case("td3 corrupted " + p[2], Documents.td3("HTI", p[2], p[3], p[4].charAt(0), "310101", p[0], p[1], true), false, false));
            cases.add(new Case("td1 " + p[2], Documents.td1("HTI", p[2], p[3], p[4].charAt(0), "310101", p[0], p[1], false), true, true));
            cases.add(new Case("td1 corrupted " + p[2], Documents.td1("HTI", p[2], p[3], p[4].charAt(0), "310101", p[0], p[1], true), true, false));
        }
        Documents.Capture[] captures = {Documents.Capture.CLEAN, new Documents.Capture(0, 0, 0, 0.8f), new Documents.Capture(0, 0, 0, 0.5f),
                new Documents.Capture(1.5, 0, 0, 0.8f), new Documents.Capture(-2.5, 0, 0, 0.8f), new Documents.Capture(0, 1, 0, 0.8f),
                new Documents.Capture(0, 0, 0.35f, 0.8f)};
        Map<String, int[]> counts = new LinkedHashMap<>();
        List<Long> millis = new ArrayList<>();
        int falseAccepts = 0;
        int falseRejects = 0;
        for (Case c : cases) {
            for (Documents.Capture capture : captures) {
                byte[] photo = Documents.photograph(c.card() ? Documents.cardBack(c.mrz()) : Documents.passport(c.mrz(), null), capture);
                long start = System.nanoTime();
                MrzReader.Reading r = reader.read(photo, today);
                millis.add((System.nanoTime() - start) / 1_000_000);
                String key = (c.card() ? "TD1 " : "TD3 ") + (c.valid() ? "valid    " : "corrupted");
                int[] n = counts.computeIfAbsent(key, k -> new int[3]);
                n[r.status().ordinal()]++;
                if (!c.valid() && r.status() == MrzReader.Status.read) {
                    falseAccepts++;
                }
                if (c.valid() && r.status() != MrzReader.Status.read) {
                    falseRejects++;
                }
            }
        }
        Collections.sort(millis);
        System.out.println("MRZ evaluation: " + millis.size() + " photos (" + cases.size() + " documents x " + captures.length + " captures)");
        System.out.println("set            read  checksum_failed  unreadable");
        counts.forEach((k, n) -> System.out.printf("%s  %4d  %15d  %10d%n", k, n[0], n[1], n[2]));
        System.out.printf("false accepts (corrupted read as valid): %d; false rejects (valid not read): %d%n", falseAccepts, falseRejects);
        System.out.printf("time per read: p50 %d ms, p95 %d ms (%s, %d cores)%n", millis.get(millis.size() / 2),
                millis.get((int) Math.ceil(millis.size() * 0.95) - 1), reader.version().orElse("?"), Runtime.getRuntime().availableProcessors());
        org.junit.jupiter.api.Assertions.assertEquals(0, falseAccepts, "a corrupted MRZ was accepted");
    }
}
