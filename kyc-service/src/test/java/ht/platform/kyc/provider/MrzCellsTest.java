package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.Scenes;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The cell reader on its own (no OCR engine on the path: the reader is given a command that does not exist): phone
 * captures of a passport and an identity card back, turned and tilted on dark and cluttered surfaces, are read with
 * every check digit; a corrupted check digit is never read as valid.
 */
class MrzCellsTest {

    static final LocalDate TODAY = LocalDate.of(2026, 11, 24);
    final MrzReader cellsOnly = new MrzReader("/nonexistent/tesseract", Duration.ofSeconds(5));

    static BufferedImage document(boolean card, String number, boolean corrupted) {
        return card ? Documents.cardBack(Documents.td1("HTI", number, "881224", 'M', "310101", "JEAN<PIERRE", "MARC", corrupted))
                : Documents.passport(Documents.td3("HTI", number, "881224", 'M', "310101", "JEAN<PIERRE", "MARC", corrupted), null);
    }

    @Test
    void phoneCapturesAreReadCellByCellWithEveryCheckDigit() {
        List<String> misses = new ArrayList<>();
        int photos = 0;
        long seed = 7;
        for (boolean card : new boolean[] {false, true}) {
            for (String number : List.of("HA0031552", "HC5502981")) {
                for (Scenes.Surface surface : List.of(Scenes.Surface.dark_wood, Scenes.Surface.cluttered_desk)) {
                    for (Scenes.Pose pose : List.of(Scenes.Pose.turned(0), Scenes.Pose.turned(-5), Scenes.Pose.turned(5),
                            new Scenes.Pose(2, 15, 0))) {
                        byte[] photo = Scenes.photograph(document(card, number, false), surface, pose, false, 0.7f, seed++);
                        photos++;
                        MrzReader.Reading r = cellsOnly.read(photo, TODAY);
                        if (r.status() != MrzReader.Status.read) {
                            misses.add((card ? "TD1 " : "TD3 ") + number + " " + surface + " " + pose + ": " + r.status());
                        }
                    }
                }
            }
        }
        System.out.println("cells read " + (photos - misses.size()) + "/" + photos + "; misses " + misses);
        assertEquals(List.of(), misses);
    }

    @Test
    void aCorruptedCheckDigitIsNeverReadAsValid() {
        long seed = 100;
        for (boolean card : new boolean[] {false, true}) {
            for (Scenes.Pose pose : List.of(Scenes.Pose.turned(0), Scenes.Pose.turned(5))) {
                byte[] photo = Scenes.photograph(document(card, "HB7720416", true), Scenes.Surface.dark_wood, pose, false, 0.8f, seed++);
                assertEquals(MrzReader.Status.checksum_failed, cellsOnly.read(photo, TODAY).status(), (card ? "TD1 " : "TD3 ") + pose);
            }
        }
    }
}
