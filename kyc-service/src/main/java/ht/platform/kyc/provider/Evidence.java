package ht.platform.kyc.provider;

import java.time.LocalDate;

/**
 * What the person submitted for one attempt, decrypted in memory only for the time of the decision, with the
 * machine-readable zone as read from the document image ({@code mrz} null when no reader runs here).
 */
public record Evidence(String documentType, String country, byte[] front, byte[] back, byte[] selfie, MrzReader.Reading mrz,
                       LocalDate today) {

    /** The side that carries the MRZ: a passport's data page, the back of a card. */
    public byte[] mrzSide() {
        return "passport".equals(documentType) || back == null ? front : back;
    }

    public Evidence withMrz(MrzReader.Reading reading) {
        return new Evidence(documentType, country, front, back, selfie, reading, today);
    }
}
