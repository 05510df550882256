package ht.platform.kyc.provider;

/**
 * Compares the face on the document with the selfie. None is built in: without a configured matcher bean the
 * face check is {@code not_performed} and live verifications cannot end {@code verified}.
 */
public interface FaceMatcher {

    enum Match { same_person, different_person, inconclusive }

    Match compare(byte[] documentImage, byte[] selfieImage);
}
