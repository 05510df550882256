package ht.platform.support.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.io.InputDecorator;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Request bodies are read as strict UTF-8 (RFC 3629): an overlong form ({@code C0 AF} for {@code /}), a surrogate, a
 * code point past U+10FFFF or a truncated sequence is refused like any other malformed byte, never decoded to a
 * character a check before it did not see. Jackson refuses most malformed UTF-8 itself but decodes overlong forms;
 * the JDK's decoder, told to report, refuses them all.
 */
public final class StrictUtf8 extends InputDecorator {

    @Override
    public InputStream decorate(IOContext ctxt, InputStream in) {
        return new Checked(in);
    }

    @Override
    public InputStream decorate(IOContext ctxt, byte[] src, int offset, int length) throws IOException {
        Validator v = new Validator();
        v.accept(src, offset, length);
        v.end();
        return null; // the bytes as they are
    }

    @Override
    public Reader decorate(IOContext ctxt, Reader r) {
        return null; // already characters
    }

    /** Decodes the bytes as they come and drops the characters; a sequence cut between two reads waits for the next. */
    static final class Validator {
        private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        private final CharBuffer sink = CharBuffer.allocate(512);
        private final ByteBuffer cut = ByteBuffer.allocate(8);

        void accept(byte[] bytes, int offset, int length) throws JsonParseException {
            ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
            while (cut.position() > 0 && in.hasRemaining()) {
                // at most 3 bytes of a sequence were cut: complete it from the new bytes, a byte at a time
                cut.put(in.get());
                cut.flip();
                decode(cut, false);
                cut.compact();
            }
            decode(in, false);
            cut.put(in);
        }

        void end() throws JsonParseException {
            cut.flip();
            decode(cut, true);
            if (cut.hasRemaining()) {
                throw invalid();
            }
            cut.clear();
        }

        private void decode(ByteBuffer in, boolean last) throws JsonParseException {
            CoderResult result;
            do {
                sink.clear();
                result = decoder.decode(in, sink, last);
                if (result.isError()) {
                    throw invalid();
                }
            } while (result.isOverflow());
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
                validator.accept(new byte[] {(byte) b}, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0) {
                validator.end();
            } else {
                validator.accept(buffer, offset, n);
            }
            return n;
        }
    }
}
