package ht.platform.support.crypto;

import java.security.SecureRandom;

/**
 * The one {@link SecureRandom} of a service, created on first use at run time. A static SecureRandom created when its
 * class initializes would be seeded at native-image build time and frozen into the image (the same "random" bytes in
 * every process); the holder class is initialized at run time (quarkus.native.additional-build-args in each service),
 * and deploy/native-check.sh and NativeInitializationTest refuse any other static SecureRandom.
 */
public final class Randomness {

    private Randomness() { }

    private static final class Holder {
        static final SecureRandom SECURE = new SecureRandom();
    }

    public static SecureRandom secure() {
        return Holder.SECURE;
    }
}
