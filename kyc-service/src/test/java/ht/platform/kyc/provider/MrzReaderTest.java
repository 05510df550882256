package ht.platform.kyc.provider;

import ht.platform.kyc.Documents;
import ht.platform.kyc.Images;
import ht.platform.kyc.Scenes;
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

    /** A passport is read in its own layout, and still named a passport when read as the card that was asked for. */
    @Test
    void aPassportReadWhereACardWasAskedForIsStillNamedAPassport() {
        byte[] photo = Images.passport(Images.mrz("HTI", "HX4271839", "900101", "300101", "BAPTISTE", "WIDLINE", false));
        assertEquals("TD3", reader.read(photo, TODAY, MrzReader.Format.of("passport")).data().format());
        assertEquals("TD3", reader.read(photo, TODAY, MrzReader.Format.of("national_id")).format());
    }

    /** A document turned on a dark table or on a cluttered desk: the skew comes from its text lines, the MRZ is read. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"dark_wood, 5", "dark_wood, -5", "cluttered_desk, 5", "cluttered_desk, -5"})
    void aTurnedPassportOnADarkOrClutteredSurfaceIsStraightenedAndRead(Scenes.Surface surface, double degrees) throws Exception {
        String mrz = Documents.td3("HTI", "HX4271839", "900101", 'F', "310101", "BAPTISTE", "WIDLINE", false);
        byte[] photo = Scenes.photograph(Documents.passport(mrz, null), surface, Scenes.Pose.turned(degrees), false, 0.8f, 11);
        double skew = MrzReader.skew(javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(photo)));
        assertEquals(-degrees, skew, 0.3, "the skew is measured on the text lines, not on the surface");
        MrzReader.Reading r = reader.read(photo, TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("HX4271839", r.data().documentNumber());
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
        MrzReader.Reading r = MrzText.interpret(ocr, TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("HTI", r.data().nationality());
        // the same text with the document number's check digit off stays a checksum failure
        assertEquals(MrzReader.Status.checksum_failed,
                MrzText.interpret("P<HTIBAPTISTE<<WIDLINE<<<<<<<<<K<\nHX42718393HT19001011F3001019<<<<K2\n", TODAY).status());
        // O and 0 in the document number are settled by its own check digit (OCR-B draws them alike)
        String td1 = Documents.td1("HTI", "IC0048213", "880512", 'M', "310630", "JEAN", "MARC", false);
        assertEquals(MrzReader.Status.read, MrzText.interpret(td1.replace("IC00", "ICOO"), TODAY).status());
        assertEquals("IC0048213", MrzText.interpret(td1.replace("IC00", "ICOO"), TODAY).data().documentNumber());
    }
}
