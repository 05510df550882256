package ht.platform.kyc.provider;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * Heuristics for a document photographed off a screen, from the pixels only. A display is a regular grid of pixels made
 * of red, green and blue sub-pixel stripes; a camera that photographs it records that grid, or its moiré, as one
 * periodic pattern over the whole picture, text and portrait included, which paper does not have. Twelve tiles
 * (128 × 128, full resolution) spread over the middle 70 % of the picture are each high-passed and transformed (FFT);
 * within the band of periods of 2-6 pixels, where printed matter has no single strong frequency, JPEG's 8-pixel block
 * lines left out, a tile is periodic when one frequency holds at least {@link #PERIODIC_SHARE} of the band's energy:
 * <ul>
 *   <li>{@code display_pixel_grid}: in the grey picture;</li>
 *   <li>{@code subpixel_colour_stripes}: in the colour difference red minus blue, where the stripes show.</li>
 * </ul>
 * The picture is a screen capture when at least {@link #COVERAGE} of its tiles are periodic: a fine line pattern
 * printed on a document fills some tiles, never the portrait and the text. No bezel or backlight measure runs. A
 * heuristic, not a proof: a failure asks for a new photo of the document itself (retryable).
 */
public final class ScreenCapture {

    /** Whether the picture is taken for a screen capture, from how many of its tiles were periodic. */
    public record Finding(boolean screen, int tiles, int periodicTiles) { }

    public static final List<String> HEURISTICS = List.of("display_pixel_grid", "subpixel_colour_stripes");

    static final int N = 128;
    /**
     * Share of the band's energy in one frequency from which a tile is periodic. Measured on kyc-service's rendered
     * documents: displays photographed at 2.3-3.1 camera pixels per display pixel 0.12-0.60 in every tile; paper 0.00-0.15
     * in the tiles over text and portrait, up to 0.52 over a perfectly regular printed line pattern.
     */
    static final double PERIODIC_SHARE = 0.10;
    static final double COVERAGE = 0.9;

    private ScreenCapture() { }

    public static Finding examine(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        if (w < 2 * N || h < 2 * N) {
            return new Finding(false, 0, 0);
        }
        int cols = Math.min(4, (int) (w * 0.7) / N);
        int rows = Math.min(3, (int) (h * 0.7) / N);
        int tiles = 0;
        int periodic = 0;
        double[][] grey = new double[N][N];
        double[][] chroma = new double[N][N];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int x0 = (int) (w * 0.15) + c * ((int) (w * 0.7) - N) / Math.max(1, cols - 1);
                int y0 = (int) (h * 0.15) + r * ((int) (h * 0.7) - N) / Math.max(1, rows - 1);
                // aligned on JPEG's 8-pixel blocks so that their spectral lines fall on the frequencies left out
                x0 -= x0 % 8;
                y0 -= y0 % 8;
                for (int y = 0; y < N; y++) {
                    for (int x = 0; x < N; x++) {
                        int rgb = image.getRGB(x0 + x, y0 + y);
                        int red = (rgb >> 16) & 0xff;
                        int green = (rgb >> 8) & 0xff;
                        int blue = rgb & 0xff;
                        grey[y][x] = 0.299 * red + 0.587 * green + 0.114 * blue;
                        chroma[y][x] = red - blue;
                    }
                }
                tiles++;
                if (strongestShare(grey) >= PERIODIC_SHARE || strongestShare(chroma) >= PERIODIC_SHARE) {
                    periodic++;
                }
            }
        }
        return new Finding(tiles > 0 && periodic >= COVERAGE * tiles, tiles, periodic);
    }

    /**
     * The tile high-passed (minus its 5 × 5 mean), windowed (Hann) and transformed; the share of the band's energy in
     * its strongest frequency (with the 3 × 3 neighbours over which the window spreads one frequency).
     */
    static double strongestShare(double[][] tile) {
        double[][] re = new double[N][N];
        double[][] im = new double[N][N];
        for (int y = 0; y < N; y++) {
            for (int x = 0; x < N; x++) {
                double sum = 0;
                int count = 0;
                for (int yy = Math.max(0, y - 2); yy <= Math.min(N - 1, y + 2); yy++) {
                    for (int xx = Math.max(0, x - 2); xx <= Math.min(N - 1, x + 2); xx++) {
                        sum += tile[yy][xx];
                        count++;
                    }
                }
                double window = (0.5 - 0.5 * Math.cos(2 * Math.PI * x / (N - 1))) * (0.5 - 0.5 * Math.cos(2 * Math.PI * y / (N - 1)));
                re[y][x] = (tile[y][x] - sum / count) * window;
            }
        }
        fft2(re, im);
        double[][] power = new double[N][N / 2 + 1];
        double total = 0;
        int peakU = -1;
        int peakV = -1;
        for (int v = 0; v < N; v++) {
            for (int u = 0; u < N / 2 + 1; u++) {
                if (!inBand(u, v)) {
                    continue;
                }
                power[v][u] = re[v][u] * re[v][u] + im[v][u] * im[v][u];
                total += power[v][u];
                if (peakU < 0 || power[v][u] > power[peakV][peakU]) {
                    peakU = u;
                    peakV = v;
                }
            }
        }
        return peakU < 0 || total <= 1e-9 ? 0 : around(power, peakU, peakV) / total;
    }

    private static boolean inBand(int u, int v) {
        int fv = signed(v);
        double radius = Math.hypot(u, fv);
        return radius >= N / 6.0 && radius <= N / 2.0 && !jpegLine(u) && !jpegLine(fv);
    }

    private static int signed(int v) {
        return v <= N / 2 ? v : v - N;
    }

    private static double around(double[][] power, int u0, int v0) {
        double sum = 0;
        for (int dv = -1; dv <= 1; dv++) {
            for (int du = -1; du <= 1; du++) {
                int u = u0 + du;
                if (u >= 0 && u <= N / 2) {
                    sum += power[Math.floorMod(v0 + dv, N)][u];
                }
            }
        }
        return sum;
    }

    /**
     * Frequencies of JPEG's 8-pixel blocks (non-zero multiples of N/8), where block edges put energy. Frequency 0 along
     * one axis is kept: a grid square to the camera has its peaks there.
     */
    private static boolean jpegLine(int f) {
        return f != 0 && Math.floorMod(f, N / 8) == 0;
    }

    /** In-place 2-D FFT (rows, then columns), N a power of two. */
    static void fft2(double[][] re, double[][] im) {
        for (int y = 0; y < N; y++) {
            fft(re[y], im[y]);
        }
        double[] cr = new double[N];
        double[] ci = new double[N];
        for (int x = 0; x < N; x++) {
            for (int y = 0; y < N; y++) {
                cr[y] = re[y][x];
                ci[y] = im[y][x];
            }
            fft(cr, ci);
            for (int y = 0; y < N; y++) {
                re[y][x] = cr[y];
                im[y][x] = ci[y];
            }
        }
    }

    static void fft(double[] re, double[] im) {
        int n = re.length;
        for (int i = 1, j = 0; i < n; i++) {
            int bit = n >> 1;
            for (; (j & bit) != 0; bit >>= 1) {
                j ^= bit;
            }
            j ^= bit;
            if (i < j) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        for (int len = 2; len <= n; len <<= 1) {
            double angle = -2 * Math.PI / len;
            double wr = Math.cos(angle);
            double wi = Math.sin(angle);
            for (int i = 0; i < n; i += len) {
                double cr = 1;
                double ci = 0;
                for (int k = 0; k < len / 2; k++) {
                    int a = i + k;
                    int b = i + k + len / 2;
                    double tr = re[b] * cr - im[b] * ci;
                    double ti = re[b] * ci + im[b] * cr;
                    re[b] = re[a] - tr;
                    im[b] = im[a] - ti;
                    re[a] += tr;
                    im[a] += ti;
                    double next = cr * wr - ci * wi;
                    ci = cr * wi + ci * wr;
                    cr = next;
                }
            }
        }
    }
}
