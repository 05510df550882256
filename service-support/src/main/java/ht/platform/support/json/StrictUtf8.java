package ht.platform.support.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.io.InputDecorator;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/**
 * Request bodies are read as strict UTF-8 (RFC 3629): an overlong form ({@code C0 AF} for {@code /}), a surrogate, a
 * code point past U+10FFFF or a truncated sequence is refused like any other malformed byte, never decoded to a
 * character a check before it did not see. Jackson refuses most malformed UTF-8 itself but decodes overlong forms.
 */
public final class StrictUtf8 extends InputDecorator {

    @Override
    public InputStream decorate(IOContext ctxt, InputStream in) {
        return new Checked(in);
    }

    @Override
    public InputStream decorate(IOContext ctxt, byte[] src, int offset, int length) throws IOException {
        Validator v = new Validator();
        for (int i = offset; i < offset + length; i++) {
            v.accept(src[i] & 0xff);
        }
        v.end();
        return null; // the bytes as they are
    }

    @Override
    public Reader decorate(IOContext ctxt, Reader r) {
        return null; // already characters
    }

    /** The UTF-8 state machine of RFC 3629's table: how many bytes the sequence still needs and their allowed range. */
    static final class Validator {
        private int need;
        private int lo = 0x80;
        private int hi = 0xBF;

        void accept(int b) throws JsonParseException {
            if (need > 0) {
                if (b < lo || b > hi) {
                    throw invalid();
                }
                need--;
                lo = 0x80;
                hi = 0xBF;
                return;
            }
            if (b < 0x80) {
                return;
            }
            if (b >= 0xC2 && b <= 0xDF) {
                need = 1;
            } else if (b == 0xE0) {
                need = 2;
                lo = 0xA0;
            } else if (b >= 0xE1 && b <= 0xEC || b == 0xEE || b == 0xEF) {
                need = 2;
            } else if (b == 0xED) {
                need = 2;
                hi = 0x9F;
            } else if (b == 0xF0) {
                need = 3;
                lo = 0x90;
            } else if (b >= 0xF1 && b <= 0xF3) {
                need = 3;
            } else if (b == 0xF4) {
                need = 3;
                hi = 0x8F;
            } else {
                throw invalid(); // 80-C1 (a continuation byte alone, or an overlong lead), F5-FF
            }
        }

        void end() throws JsonParseException {
            if (need > 0) {
                throw invalid();
            }
        }

        private static JsonParseException invalid() {
            return new JsonParseException((JsonParser) null, "Invalid UTF-8 in the request body");
        }
    }

    private static final class Checked extends FilterInputStream {
        private final Validator validator = new Validator();

        Checked(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) {
                validator.end();
            } else {
                validator.accept(b);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0) {
                validator.end();
            }
            for (int i = 0; i < n; i++) {
                validator.accept(buffer[offset + i] & 0xff);
            }
            return n;
        }
    }
}
