package ht.platform.kyc;

import ht.platform.kyc.provider.Mrz;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Generated test images (sharp, evenly lit noise; flat grey; black) and ICAO 9303 TD3 MRZ text. */
public final class Images {

    private Images() { }

    public static byte[] sharp(int w, int h, long seed) {
        Random random = new Random(seed);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int v = 60 + random.nextInt(140);
                img.setRGB(x, y, (v << 16) | (v << 8) | v);
            }
        }
        return png(img);
    }

    public static byte[] flat(int w, int h, int level) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                img.setRGB(x, y, (level << 16) | (level << 8) | level);
            }
        }
        return png(img);
    }

    public static Path file(byte[] bytes, String name) {
        try {
            Path p = Files.createTempFile(name, ".png");
            Files.write(p, bytes);
            p.toFile().deleteOnExit();
            return p;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] png(BufferedImage img) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(img, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A TD3 MRZ with correct check digits (unless {@code breakChecksum}). */
    public static String mrz(String state, String number, String birth, String expiry, boolean breakChecksum) {
        return mrz(state, number, birth, expiry, "DOE", "JANE", breakChecksum);
    }

    /** The same with the holder's surname and given name (A-Z). */
    public static String mrz(String state, String number, String birth, String expiry, String surname, String given, boolean breakChecksum) {
        String l1 = pad("P<" + state + surname + "<<" + given, 44);
        String doc = pad(number, 9);
        String personal = "<".repeat(14);
        String l2 = doc + Mrz.checkDigit(doc) + state + birth + Mrz.checkDigit(birth) + "F" + expiry + Mrz.checkDigit(expiry) + personal + "<";
        String composite = l2.substring(0, 10) + l2.substring(13, 20) + l2.substring(21, 43);
        l2 = l2 + Mrz.checkDigit(composite);
        if (breakChecksum) {
            char c = l2.charAt(9);
            l2 = l2.substring(0, 9) + (char) ('0' + (c - '0' + 1) % 10) + l2.substring(10);
        }
        return l1 + "\n" + l2;
    }

    private static String pad(String s, int n) {
        return (s + "<".repeat(n)).substring(0, n);
    }
}
