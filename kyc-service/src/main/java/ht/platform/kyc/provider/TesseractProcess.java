package ht.platform.kyc.provider;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code tesseract} command of Debian's tesseract-ocr, run as a process on the caller's worker thread: the image
 * goes in on stdin as PNG, the text comes back on stdout; no file is written, a stuck engine is killed at the timeout.
 */
final class TesseractProcess {

    private final String command;
    private final Duration timeout;

    TesseractProcess(String command, Duration timeout) {
        this.command = command;
        this.timeout = timeout;
    }

    /** The engine's version line, or empty when the command does not run here. */
    Optional<String> version() {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? Optional.of(out.lines().findFirst().orElse("").strip())
                    : Optional.empty();
        } catch (IOException | InterruptedException e) {
            return Optional.empty();
        }
    }

    /** The text on {@code image} (upper case; empty when the engine fails or is too slow), page mode {@code psm}. */
    String read(BufferedImage image, String psm, String whitelist) {
        Process process = null;
        try {
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            ImageIO.write(image, "png", png);
            ProcessBuilder builder = new ProcessBuilder(command, "stdin", "stdout", "-l", "eng", "--psm", psm,
                    "-c", "tessedit_char_whitelist=" + whitelist, "-c", "load_system_dawg=0", "-c", "load_freq_dawg=0")
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            // one band is too small for OpenMP's threads to pay: with them Tesseract spends twice the CPU, and on a
            // busy machine more wall time too (the threads wait for each other)
            builder.environment().put("OMP_THREAD_LIMIT", "1");
            process = builder.start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(png.toByteArray());
            }
            // the text of one band is far below a pipe's buffer: wait first, so a stuck engine cannot hold the worker
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return "";
            }
            byte[] text;
            try (InputStream out = process.getInputStream()) {
                text = out.readAllBytes();
            }
            return new String(text, StandardCharsets.UTF_8).toUpperCase();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }
}
