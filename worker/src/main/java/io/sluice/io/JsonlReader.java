package io.sluice.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.doc.Document;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads JSON lines from one {@link InputPiece} with no per-line copy: the (decompressed) bytes go into
 * one reused buffer, lines are found with an eight-bytes-at-a-time newline scan, and
 * {@link JsonLineScanner} finds the text and id of each line in place while checking the line is
 * valid JSON. Only the id is decoded here; the text is decoded when a step asks for it, and the
 * metadata is parsed (with Jackson) when a step asks for it.
 *
 * <p>Field mapping follows datatrove's JsonlReader: {@code text_key} and {@code id_key} are taken
 * out, {@code metadata} is the document's metadata, other top-level keys are folded into it, and
 * {@code default_metadata} fills keys the line lacks. The default id is {@code <file>/<line index>};
 * for a piece of a split file, where line indices are unknown, it is {@code <file>/b<byte offset>}.
 */
public final class JsonlReader {
    private static final ObjectMapper MAPPER = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(JsonLineScanner.LIMITS)
            .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build());
    private static final Map<String, byte[]> QUOTED_KEYS = new ConcurrentHashMap<>();

    /** What the reader does with one bad line; corrupt compressed streams always end the file. */
    public enum OnError { FAIL, SKIP }

    /** Receives each document and hears about skipped lines. */
    public interface Handler {
        /** Returns false to stop reading (a limit was reached). */
        boolean document(Document doc) throws IOException;

        void skipped(String reason, String message);

        /** A line of nothing but whitespace: no document, and nothing to report but a count. */
        default void blankLine() {
        }
    }

    public record Options(String textKey, String idKey, Map<String, Object> defaultMetadata, OnError onError) {
    }

    /** A problem in the input, with the file and position in its message. */
    public static final class BadInputException extends IOException {
        private final long bytesRead;

        public BadInputException(String message, Throwable cause) {
            this(message, cause, -1);
        }

        BadInputException(String message, Throwable cause, long bytesRead) {
            super(message, cause);
            this.bytesRead = bytesRead;
        }

        /** For a damaged stream, the uncompressed bytes read before the damage; else -1. */
        public long bytesRead() {
            return bytesRead;
        }
    }

    private final Options options;
    private final JsonLineScanner scanner;
    private final Document.LineParser lineParser;
    private byte[] buf = new byte[1 << 20];

    /**
     * Whether a line read here, written back as it is, reads back as the same document with datatrove's
     * and our default options: the text under "text", the id under "id", and no default metadata the line
     * may lack. Otherwise an unchanged document is still serialised as {@code {"text", "id", "metadata"}},
     * as datatrove writes every document, so that the next stage finds its text, id and metadata.
     */
    private final boolean linesReadBackAlike;

    public JsonlReader(Options options) {
        this.options = options;
        this.linesReadBackAlike = options.textKey().equals("text") && options.idKey().equals("id")
                && (options.defaultMetadata() == null || options.defaultMetadata().isEmpty());
        this.scanner = new JsonLineScanner(options.textKey(), options.idKey());
        this.lineParser = new Document.LineParser() {
            @Override
            public Map<String, Object> metadata(byte[] b, int off, int len) {
                return metadataOf(b, off, len);
            }

            @Override
            public String text(byte[] b, int start, int end, boolean escaped) {
                return JsonLineScanner.decode(b, start, end, escaped);
            }

            @Override
            public Object media(byte[] b, int off, int len, int textStart, int textEnd) {
                return mayHold(b, off, textStart, "media") || mayHold(b, textEnd, off + len, "media") ? mediaOf(b, off, len) : null;
            }

            @Override
            public boolean mayHaveKey(byte[] b, int off, int len, int textStart, int textEnd, String key) {
                return (options.defaultMetadata() != null && options.defaultMetadata().containsKey(key))
                        || mayHold(b, off, textStart, key) || mayHold(b, textEnd, off + len, key);
            }
        };
    }

    /**
     * False when the JSON bytes {@code b[from:to]} certainly hold no object key {@code key}: neither the
     * quoted key nor any backslash (an escaped spelling of it) occurs there. The text value, most of a
     * line, is left out by the caller.
     */
    static boolean mayHold(byte[] b, int from, int to, String key) {
        byte[] quoted = QUOTED_KEYS.computeIfAbsent(key, k -> ('"' + k + '"').getBytes(StandardCharsets.UTF_8));
        byte first = quoted[0];
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '\\') {
                return true;
            }
            if (c == first && i + quoted.length <= to && Arrays.equals(b, i, i + quoted.length, quoted, 0, quoted.length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every document of one whole file, detached (safe to keep), read with the defaults: keys
     * {@code text} and {@code id}, a bad line fails, a line with empty or no text is left out (as datatrove
     * does). For tools, tests and benchmarks; pipelines use
     * {@code read_jsonl}.
     */
    public static List<Document> readAll(Path file) throws IOException {
        List<Document> docs = new ArrayList<>();
        JsonlReader reader = new JsonlReader(new Options("text", "id", null, OnError.FAIL));
        Path abs = file.toAbsolutePath();
        reader.read(abs.getParent(), new InputPiece(abs.getFileName().toString(), 0, -1), new Handler() {
            @Override
            public boolean document(Document doc) {
                docs.add(doc.detach());
                return true;
            }

            @Override
            public void skipped(String reason, String message) {
                // only empty or missing texts are reported here (bad lines throw), and datatrove skips those too
            }
        });
        return docs;
    }

    /**
     * Reads one piece; returns the number of uncompressed bytes read.
     *
     * @param root the folder that {@code piece.file()} is relative to
     */
    public long read(Path root, InputPiece piece, Handler handler) throws IOException {
        Path path = root.resolve(piece.file());
        Compression compression = Compression.fromFileName(piece.file());
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long start = piece.wholeFile() ? 0 : alignToLineStart(ch, piece.start());
            ch.position(start);
            CountingStream counted = new CountingStream(Channels.newInputStream(ch));
            InputStream in;
            try {
                in = compression.decompress(counted, start == 0);
            } catch (Compression.WrongFormatException e) {
                throw new BadInputException(piece.file() + ": " + e.getMessage(), e);
            } catch (IOException e) {
                // a damaged header: the same message, and the same skip under on_error: skip, as damage further in
                throw corrupt(piece, compression, counted, 0, start, 0, e);
            }
            try (in) {
                return frame(in, piece, start, compression, counted, handler);
            }
        }
    }

    /**
     * The first line starting at or after {@code pos}: a line belongs to the range holding its first byte. Lines
     * end as {@link #frame} ends them: at '\n', "\r\n" or a lone '\r'.
     */
    private static long alignToLineStart(FileChannel ch, long pos) throws IOException {
        if (pos == 0) {
            return 0;
        }
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        long p = pos - 1;
        boolean afterReturn = false;
        while (true) {
            b.clear();
            int n = ch.read(b, p);
            if (n <= 0) {
                return ch.size();
            }
            for (int i = 0; i < n; i++) {
                byte c = b.get(i);
                if (afterReturn) {
                    return c == '\n' ? p + i + 1 : p + i;
                }
                if (c == '\n') {
                    return p + i + 1;
                }
                afterReturn = c == '\r';
            }
            p += n;
        }
    }

    private long frame(InputStream in, InputPiece piece, long startOffset, Compression compression,
                       CountingStream counted, Handler handler) throws IOException {
        boolean split = !piece.wholeFile();
        long end = split ? piece.end() : Long.MAX_VALUE;
        int filled = 0;      // bytes in buf
        int lineStart = 0;   // start of the current line in buf
        long bufBase = startOffset; // uncompressed offset of buf[0]
        long lineIndex = 0;
        long total = 0;
        boolean eof = false;
        int scanFrom = 0;    // bytes before it (in the current line) are known to hold no line end
        while (true) {
            // a line ends at '\n', "\r\n" or a lone '\r', as in Python's universal newlines, with which datatrove
            // opens a file; a '\r' last in the buffer waits for the next byte
            int nl = Bytes.indexOfLineEnd(buf, scanFrom, filled);
            boolean waitForByte = nl >= 0 && nl == filled - 1 && buf[nl] == '\r' && !eof;
            if (nl < 0 || waitForByte) {
                if (eof) {
                    if (lineStart < filled) {
                        nl = filled; // last line without a final newline
                    } else {
                        return total;
                    }
                } else {
                    // move the partial line to the front, grow when one line fills the buffer, refill
                    scanFrom = (waitForByte ? nl : filled) - lineStart;
                    if (lineStart > 0) {
                        System.arraycopy(buf, lineStart, buf, 0, filled - lineStart);
                        filled -= lineStart;
                        bufBase += lineStart;
                        lineStart = 0;
                    } else if (filled == buf.length) {
                        grow(where(piece, split, lineIndex, bufBase));
                    }
                    int n;
                    try {
                        n = in.read(buf, filled, buf.length - filled);
                    } catch (IOException e) {
                        throw corrupt(piece, compression, counted, lineIndex, bufBase + filled, bufBase + filled - startOffset, e);
                    }
                    if (n < 0) {
                        eof = true;
                    } else {
                        filled += n;
                        if (bufBase == 0 && lineStart == 0 && startsWithByteOrderMark(filled)) {
                            lineStart = scanFrom = 3; // a file may start with the UTF-8 signature; it is not JSON
                            total += 3; // but it is bytes of the file, counted in the step's "bytes"
                        }
                    }
                    continue;
                }
            }
            long lineOffset = bufBase + lineStart;
            if (split && lineOffset >= end) {
                return total;
            }
            int len = nl - lineStart;
            int endLength = nl == filled ? 0 : buf[nl] == '\r' && nl + 1 < filled && buf[nl + 1] == '\n' ? 2 : 1;
            total += len + endLength;
            if (isBlank(buf, lineStart, len)) {
                handler.blankLine();
            } else {
                Document doc = parse(piece, split, lineIndex, lineOffset, buf, lineStart, len, handler);
                if (doc != null && !handler.document(doc)) {
                    return total;
                }
            }
            lineIndex++;
            lineStart = nl + endLength;
            scanFrom = lineStart;
            if (nl >= filled) {
                return total;
            }
        }
    }

    /** The longest array HotSpot allocates: a line longer than it cannot be held. */
    private static final int MAX_LINE_BYTES = Integer.MAX_VALUE - 8;

    /**
     * Doubles the line buffer, full with one line that starts at {@code line}. Past 1 GiB the doubled size
     * overflowed (a bare "-2147483648" was the rank's message), and a heap too small for the line said neither
     * file nor line: both now name the line.
     */
    private void grow(String line) throws IOException {
        if (buf.length >= MAX_LINE_BYTES) {
            throw new IOException(line + ": a line longer than " + MAX_LINE_BYTES + " bytes, more than a Java array"
                    + " holds; split the document, or leave it out of the input");
        }
        byte[] bigger;
        try {
            bigger = new byte[(int) Math.min(2L * buf.length, MAX_LINE_BYTES)];
        } catch (OutOfMemoryError e) {
            throw new IOException(line + ": a line of more than " + (buf.length >> 20) + " MB does not fit in the"
                    + " heap; give the workers more heap (SLUICE_JAVA_OPTS=-Xmx..., or the slurm block's memory) or"
                    + " fewer workers", e);
        }
        System.arraycopy(buf, 0, bigger, 0, buf.length);
        buf = bigger;
    }

    private boolean startsWithByteOrderMark(int filled) {
        return filled >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF;
    }

    private static boolean isBlank(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t') { // no '\r': every one ends a line
                return false;
            }
        }
        return true;
    }

    private Document parse(InputPiece piece, boolean split, long lineIndex, long lineOffset,
                           byte[] b, int off, int len, Handler handler) throws IOException {
        JsonLineScanner sc = scanner;
        if (!sc.scan(b, off, len)) {
            String where = where(piece, split, lineIndex, lineOffset + (sc.errorPos - off));
            String reason = sc.error.contains("UTF-8") ? "invalid_utf8" : "malformed";
            Compression c = Compression.fromFileName(piece.file());
            // gzip checks its CRC only at a member's end: a damaged byte first comes out as a garbled line
            String damage = c == Compression.NONE || options.onError() != OnError.FAIL ? ""
                    : " (or the compressed file is damaged: `" + c.name().toLowerCase() + " -t` checks it)";
            return bad(handler, reason, where + ": " + (reason.equals("malformed") ? "malformed JSON: " : "") + sc.error + damage);
        }
        if (!sc.textPresent) {
            // datatrove's adapter reads a missing text as "" and skips the document, warning "Is your text_key
            // correct?": a corpus with some records without text runs there, and failed here
            handler.skipped("missing_text", where(piece, split, lineIndex, lineOffset) + ": no '" + options.textKey()
                    + "' key, skipped as datatrove does (is text_key right?)");
            return null;
        }
        if (!sc.textIsString) {
            if (falsy(new String(b, sc.textStart, sc.textEnd - sc.textStart, StandardCharsets.UTF_8))) {
                handler.skipped("empty_text", where(piece, split, lineIndex, lineOffset) + ": empty text, skipped as datatrove does");
                return null;
            }
            return bad(handler, "malformed", where(piece, split, lineIndex, lineOffset) + ": '" + options.textKey() + "' is not a string");
        }
        if (sc.textEnd == sc.textStart) {
            handler.skipped("empty_text", where(piece, split, lineIndex, lineOffset) + ": empty text, skipped as datatrove does");
            return null;
        }
        String id;
        boolean hasId = sc.idStart >= 0 && !(!sc.idIsString && ascii(sc.idStart, sc.idEnd, b).equals("null"));
        if (hasId) {
            id = sc.idIsString ? JsonLineScanner.decode(b, sc.idStart, sc.idEnd, sc.idEscaped) : ascii(sc.idStart, sc.idEnd, b);
        } else {
            id = split ? piece.file() + "/b" + lineOffset : piece.file() + "/" + lineIndex;
        }
        Document doc = Document.fromLine(id, b, off, len, sc.textStart, sc.textEnd, sc.textEscaped, sc.textCodePoints,
                sc.mayHoldTokenCount || (options.defaultMetadata() != null && options.defaultMetadata().containsKey("token_count")),
                lineParser,
                piece.file(), split ? -1 : lineIndex + 1, lineOffset);
        if (!hasId || !linesReadBackAlike) {
            doc.requireSerialising(); // its line alone would not give this document back (see linesReadBackAlike)
        }
        return doc;
    }

    /**
     * Whether a JSON value that is not a string is false to Python, which datatrove's {@code if not text} skips as
     * empty (null, false, 0, [], {}); any other fails, as a document's text must be a string.
     */
    private static boolean falsy(String value) {
        String v = value.replaceAll("[ \t\r\n]", "");
        if (v.equals("null") || v.equals("false") || v.equals("[]") || v.equals("{}")) {
            return true;
        }
        try {
            return Double.parseDouble(v) == 0;
        } catch (NumberFormatException e) {
            return false; // true, or a non-empty array or object
        }
    }

    private static String ascii(int s, int e, byte[] b) {
        return new String(b, s, e - s, StandardCharsets.US_ASCII);
    }

    private static String where(InputPiece piece, boolean split, long lineIndex, long byteOffset) {
        return piece.file() + (split ? "" : ":" + (lineIndex + 1)) + " (byte " + byteOffset + ")";
    }

    private Document bad(Handler handler, String reason, String message) throws BadInputException {
        if (options.onError() == OnError.FAIL) {
            throw new BadInputException(message, null);
        }
        handler.skipped(reason, message);
        return null;
    }

    /** The top-level "media" value of a line, parsed, or null: the metadata parser skips it. */
    private static Object mediaOf(byte[] b, int off, int len) {
        try (JsonParser p = MAPPER.getFactory().createParser(b, off, len)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("media")) {
                    return MAPPER.readValue(p, Object.class);
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            throw new IllegalArgumentException(firstLine(e.getMessage()), e);
        }
    }

    /**
     * The metadata of a line, datatrove's way (see the class comment). Streams over the line and
     * skips the text and id values without decoding them: the text is usually most of the line.
     */
    @SuppressWarnings("unchecked")
    Map<String, Object> metadataOf(byte[] b, int off, int len) {
        Map<String, Object> data = new LinkedHashMap<>();
        Object md = null;
        try (JsonParser p = MAPPER.getFactory().createParser(b, off, len)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals(options.textKey()) || name.equals(options.idKey()) || name.equals("media")) {
                    p.skipChildren(); // a string value is skipped by the next nextToken(), undecoded
                } else if (name.equals("metadata")) {
                    md = MAPPER.readValue(p, Object.class);
                } else {
                    data.put(name, MAPPER.readValue(p, Object.class));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(firstLine(e.getMessage()), e);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (options.defaultMetadata() != null) {
            out.putAll(options.defaultMetadata());
        }
        if (md instanceof Map<?, ?> m) {
            out.putAll((Map<String, Object>) m);
        } else if (md != null) {
            out.put("metadata", md);
        }
        out.putAll(data);
        return out;
    }

    private static BadInputException corrupt(InputPiece piece, Compression c, CountingStream counted,
                                             long lineIndex, long uncompressedOffset, long bytesRead, IOException e) {
        String kind = c == Compression.NONE ? "read error" : "corrupt or truncated " + c.name().toLowerCase() + " stream";
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage());
        if (msg.equals("No error detected") || msg.equals("EOFException")) {
            // zstd-jni's words for bytes after a frame that are not a frame, or a bad checksum; Java's for a cut file
            msg = c == Compression.ZSTD ? "bytes that are not a zstd frame, or a frame whose checksum does not match (`zstd -t`"
                    + " says which)" : "the file ends inside the compressed stream (cut short)";
        }
        return new BadInputException(piece.file() + ": " + kind + " near compressed byte " + counted.count
                + " (after line " + lineIndex + ", uncompressed byte " + uncompressedOffset + "): " + msg, e,
                bytesRead);
    }

    private static String firstLine(String s) {
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /** Counts raw bytes read from the file, so a decompression error can say where it happened. */
    private static final class CountingStream extends FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
