package ht.platform.kyc;

import ht.platform.kyc.provider.Mrz;

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

    /**
     * A decompression bomb: a valid PNG whose header declares {@code w × h} RGB pixels (30000² is 2.7 GB decoded)
     * with a tiny compressed first block of rows; the file is a few hundred bytes.
     */
    public static byte[] pngBomb(int w, int h) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
            java.nio.ByteBuffer ihdr = java.nio.ByteBuffer.allocate(13).putInt(w).putInt(h).put((byte) 8).put((byte) 2)
                    .put((byte) 0).put((byte) 0).put((byte) 0);
            chunk(out, "IHDR", ihdr.array());
            java.util.zip.Deflater deflater = new java.util.zip.Deflater(9);
            deflater.setInput(new byte[(3 * w + 1) * 16]);
            byte[] buf = new byte[1 << 16];
            ByteArrayOutputStream idat = new ByteArrayOutputStream();
            while (!deflater.needsInput()) {
                idat.write(buf, 0, deflater.deflate(buf, 0, buf.length, java.util.zip.Deflater.SYNC_FLUSH));
            }
            chunk(out, "IDAT", idat.toByteArray());
            chunk(out, "IEND", new byte[0]);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) throws IOException {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        byte[] t = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        crc.update(t);
        crc.update(data);
        out.write(java.nio.ByteBuffer.allocate(4).putInt(data.length).array());
        out.write(t);
        out.write(data);
        out.write(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    private static byte[] png(BufferedImage img) {
        return Documents.png(img);
    }

    /** A photographed specimen passport data page carrying {@code mrz} (rendered in OCR-B, read by the live MRZ check). */
    public static byte[] passport(String mrz) {
        return Documents.photograph(Documents.passport(mrz, null), Documents.Capture.CLEAN);
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
