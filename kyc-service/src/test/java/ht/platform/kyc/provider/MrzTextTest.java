package ht.platform.kyc.provider;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The O/0 rules of the document number, on the German identity-card specimen's MRZ (Erika Mustermann, T22000129, as
 * printed on the specimen in PassportEye's test data) and on a number whose two O's cancel out in its check digits.
 */
class MrzTextTest {

    static final LocalDate TODAY = LocalDate.of(2010, 1, 1);
    static final String LINE2 = "6408125<2010315D<<<<<<<<<<<<<4";
    static final String LINE3 = "MUSTERMANN<<ERIKA<<<<<<<<<<<<<";

    static String specimen(String number) {
        return "IDD<<" + number + "3<<<<<<<<<<<<<<<\n" + LINE2 + "\n" + LINE3;
    }

    @Test
    void theSpecimenAsPrintedIsRead() {
        MrzReader.Reading r = MrzText.interpret(specimen("T22000129"), TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("T22000129", r.data().documentNumber());
    }

    @Test
    void zeroesThatOcrReadAsOAreSettledByTheCheckDigits() {
        MrzReader.Reading r = MrzText.interpret(specimen("T22OOO129"), TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("T22000129", r.data().documentNumber());
    }

    @Test
    void aMisreadLetterIsNeverRepairedIntoANumberWhoseCheckDigitsHold() {
        // T read as 1: swapping the two zeros after it for O's would make both check digits hold (1220OO129)
        assertEquals(MrzReader.Status.checksum_failed, MrzText.interpret(specimen("122000129"), TODAY).status());
        assertEquals(MrzReader.Status.checksum_failed, MrzText.interpretCells(specimen("122000129"), TODAY).status());
    }

    @Test
    void aNumberThatPassesWithOAndWith0AlikeIsReadWithDigits() {
        // O's at the 4th and 5th places weigh 7 and 3: 24 × (7 + 3) leaves every check digit as 0's do
        MrzReader.Reading r = MrzText.interpretCells(specimen("T22OO0129"), TODAY);
        assertEquals(MrzReader.Status.read, r.status());
        assertEquals("T22000129", r.data().documentNumber());
    }
}
