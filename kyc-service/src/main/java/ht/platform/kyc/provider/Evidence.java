package ht.platform.kyc.provider;

import java.time.LocalDate;

/** What the person submitted for one attempt, decrypted in memory only for the time of the decision. */
public record Evidence(String documentType, String country, byte[] front, byte[] back, byte[] selfie, String mrzText, LocalDate today) { }
