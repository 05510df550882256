package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.Images;
import ht.platform.kyc.MachineTools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MRZ read from rendered document photos by the real Tesseract, and the fitting of what OCR gives back. */
class MrzReaderTest {

    static final LocalDate TODAY = LocalDate.of(2026, 11, 23);
    final MrzReader reader = new MrzReader("tesseract", Duration.ofSeconds(60));

    @BeforeAll
    static void tesseract() {
        MachineTools.require("tesseract");
    }

    @Test
    void theEngineRunsHere() {
        assertTrue(reader.version().orElse("").startsWith("tesseract"), "tesseract-ocr must be installed");
    }

    @Test
    void aPassportPhotoIsRead() {
        String mrz = Images.mrz("HTI", "HX4271839", "900101", "300101", "BAPTISTE", "WIDLINE", false);
        MrzReader.Reading r = reader.read(Images.passport(mrz), TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("TD3", r.data().format());
        assertEquals("HTI", r.data().issuingState());
        assertEquals("HX4271839", r.data().documentNumber());
        assertEquals(LocalDate.of(2030, 1, 1), r.data().expiryDate());
    }

    @Test
    void aWrongCheckDigitIsFoundOnThePhoto() {
        String mrz = Images.mrz("HTI", "HX4271839", "900101", "300101", "BAPTISTE", "WIDLINE", true);
        assertEquals(MrzReader.Status.checksum_failed, reader.read(Images.passport(mrz), TODAY).status());
    }

    @Test
    void aPhotoWithoutAnMrzIsUnreadable() {
        assertEquals(MrzReader.Status.unreadable, reader.read(Images.sharp(1000, 700, 5), TODAY).status());
        assertEquals(MrzReader.Status.unreadable, reader.read(Documents.png(Documents.cardFront(null)), TODAY).status());
    }

    @Test
    void whatOcrGivesBackIsFittedFieldByFieldNeverGuessed() {
        // real Tesseract output for a clean passport: 'I' read as 1 in the state, fillers miscounted, '<' read as K
        String ocr = "P<HTIBAPTISTE<<WIDLINE<<<<<<<<<K<\nHX42718392HT19001011F3001019<<<<K2\n";
        MrzReader.Reading r = MrzReader.interpret(ocr, TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("HTI", r.data().nationality());
        // the same text with the document number's check digit off stays a checksum failure
        assertEquals(MrzReader.Status.checksum_failed,
                MrzReader.interpret("P<HTIBAPTISTE<<WIDLINE<<<<<<<<<K<\nHX42718393HT19001011F3001019<<<<K2\n", TODAY).status());
        // O and 0 in the document number are settled by its own check digit (OCR-B draws them alike)
        String td1 = Documents.td1("HTI", "IC0048213", "880512", 'M', "310630", "JEAN", "MARC", false);
        assertEquals(MrzReader.Status.read, MrzReader.interpret(td1.replace("IC00", "ICOO"), TODAY).status());
        assertEquals("IC0048213", MrzReader.interpret(td1.replace("IC00", "ICOO"), TODAY).data().documentNumber());
    }
}
