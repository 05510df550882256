import javax.imageio.ImageIO;
import java.awt.Image;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A photo as kyc-service hands it to its face sidecar: raw RGB bytes, at most 1024 pixels along the longer side.
 * java deploy/container-check/RawRgb.java in.jpg out.rgb   prints "width height"
 */
public class RawRgb {
    public static void main(String[] args) throws IOException {
        BufferedImage in = ImageIO.read(new File(args[0]));
        double scale = Math.min(1.0, 1024.0 / Math.max(in.getWidth(), in.getHeight()));
        int w = (int) Math.round(in.getWidth() * scale), h = (int) Math.round(in.getHeight() * scale);
        BufferedImage rgb = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        rgb.getGraphics().drawImage(in.getScaledInstance(w, h, Image.SCALE_SMOOTH), 0, 0, null);
        try (OutputStream out = new FileOutputStream(args[1])) {
            byte[] row = new byte[w * 3];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int p = rgb.getRGB(x, y);
                    row[3 * x] = (byte) (p >> 16);
                    row[3 * x + 1] = (byte) (p >> 8);
                    row[3 * x + 2] = (byte) p;
                }
                out.write(row);
            }
        }
        System.out.println(w + " " + h);
    }
}
