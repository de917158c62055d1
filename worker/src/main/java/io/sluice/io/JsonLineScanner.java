package io.sluice.io;

import com.fasterxml.jackson.core.StreamReadConstraints;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Finds the top-level fields of one JSON-object line without decoding it: where the text value and
 * the id value are, so a document can be made from the line's bytes and its text decoded only when
 * a step asks for it. While scanning it checks what a JSON parser would reject — structure at every
 * depth, numbers, literals, unterminated strings, control characters in strings, invalid UTF-8, and past
 * the metadata parser's limits, nesting, long numbers, long strings and long field names — and reports
 * the first problem with its byte position.
 *
 * <p>One scanner per reader; {@link #scan} overwrites the previous line's results.
 */
public final class JsonLineScanner {
    private final byte[] textKey;
    private final byte[] idKey;

    // results of the last scan
    public int textStart = -1;
    public int textEnd;
    public boolean textEscaped;
    /** The text's length in code points, as Python's {@code len} gives it once the line is read. */
    public int textCodePoints;
    /** Whether some field of the line, at any depth, may be named {@code token_count} (datatrove's doc_len_tokens). */
    public boolean mayHoldTokenCount;
    public boolean textIsString;
    public boolean textPresent;
    public int idStart = -1;
    public int idEnd;
    public boolean idEscaped;
    public boolean idIsString;
    public String error;
    public int errorPos;

    private byte[] b;
    private int end;
    private boolean lastStringEscaped;
    /** The bytes of the last string beyond its code points: UTF-8's continuation bytes and escapes' extra bytes. */
    private int lastStringExtraBytes;
    /** The value of the last {@code \\u} escape {@link #escape} read. */
    private int unicodeEscape;

    public JsonLineScanner(String textKey, String idKey) {
        this.textKey = textKey.getBytes(StandardCharsets.UTF_8);
        this.idKey = idKey.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The limits of the parser that reads the metadata ({@link JsonlReader}'s: Jackson's defaults, but strings of
     * any length, as they parse in linear time and raw HTML kept in the metadata can pass Jackson's 20 M). A line
     * past one is valid JSON that the parser would refuse only when a step first asked for the metadata,
     * failing the rank whatever {@code on_error} said; it is refused here instead, with its position.
     * (Lifting them all is no answer: Jackson's limit on numbers guards against parsing that takes quadratic
     * time, 16 s for a number of a million digits.) The text and id values are not parsed, so not limited.
     */
    static final StreamReadConstraints LIMITS = StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build();
    private static final int MAX_NESTED_DEPTH = LIMITS.getMaxNestingDepth();
    private static final int MAX_NUMBER_LENGTH = LIMITS.getMaxNumberLength();
    private static final int MAX_STRING_LENGTH = LIMITS.getMaxStringLength();
    private static final int MAX_NAME_LENGTH = LIMITS.getMaxNameLength();

    /** Scans {@code b[off, off + len)}; false with {@link #error} set when the line is not a valid JSON object. */
    public boolean scan(byte[] b, int off, int len) {
        this.b = b;
        this.end = off + len;
        textStart = idStart = -1;
        textPresent = textIsString = textEscaped = idIsString = idEscaped = mayHoldTokenCount = false;
        error = null;
        int p = skipWs(off);
        if (p >= end || b[p] != '{') {
            return fail("line is not a JSON object", p);
        }
        p = skipWs(p + 1);
        if (p < end && b[p] == '}') {
            return trailing(p + 1);
        }
        int badMetadata = -1; // where a 'metadata' that is not an object starts, unless a later one replaces it
        while (true) {
            if (p >= end || b[p] != '"') {
                return fail("expected a field name", p);
            }
            int keyStart = p + 1;
            p = name(p);
            if (p < 0) {
                return false;
            }
            int keyEnd = p - 1;
            // a name with escapes is compared decoded, as Python's json and the metadata parser read it ("t\u0065xt")
            byte[] decodedKey = lastStringEscaped ? decode(b, keyStart, keyEnd, true).getBytes(StandardCharsets.UTF_8) : null;
            p = skipWs(p);
            if (p >= end || b[p] != ':') {
                return fail("expected ':' after a field name", p);
            }
            p = skipWs(p + 1);
            int valueStart = p;
            boolean isString = p < end && b[p] == '"';
            boolean isText = named(textKey, decodedKey, keyStart, keyEnd);
            boolean isId = !isText && named(idKey, decodedKey, keyStart, keyEnd);
            // the metadata parser skips these values, strings undecoded: no limit on their strings' length
            boolean skipped = isText || isId || named(MEDIA, decodedKey, keyStart, keyEnd);
            if (!skipped && named(METADATA, decodedKey, keyStart, keyEnd)) {
                // datatrove merges the metadata with the line's other keys and fails on anything but an object;
                // of a key given twice, Python's json keeps the last
                badMetadata = p < end && b[p] != '{' && b[p] != 'n' ? p : -1;
            }
            p = value(p, 1, !skipped);
            if (p < 0) {
                return false;
            }
            if (isText) {
                textPresent = true;
                textIsString = isString;
                textStart = isString ? valueStart + 1 : valueStart;
                textEnd = isString ? p - 1 : p;
                textEscaped = isString && lastStringEscaped;
                textCodePoints = textEnd - textStart - (isString ? lastStringExtraBytes : 0);
            } else if (isId) {
                idIsString = isString;
                idStart = isString ? valueStart + 1 : valueStart;
                idEnd = isString ? p - 1 : p;
                idEscaped = isString && lastStringEscaped;
            }
            p = skipWs(p);
            if (p < end && b[p] == ',') {
                p = skipWs(p + 1);
            } else if (p < end && b[p] == '}') {
                return badMetadata >= 0 ? fail("'metadata' is not an object", badMetadata) : trailing(p + 1);
            } else {
                return fail("expected ',' or '}'", p);
            }
        }
    }

    private static final byte[] METADATA = "metadata".getBytes(StandardCharsets.US_ASCII);

    /** The other field the metadata parser skips (see {@code JsonlReader.metadataOf}). */
    private static final byte[] MEDIA = "media".getBytes(StandardCharsets.US_ASCII);

    private boolean trailing(int p) {
        p = skipWs(p);
        return p == end || fail("trailing data after the JSON object", p);
    }

    /** Is the field name b[s, e) (or, when it has escapes, {@code decoded}) {@code key}? */
    private boolean named(byte[] key, byte[] decoded, int s, int e) {
        return decoded == null ? keyIs(key, s, e) : java.util.Arrays.equals(key, decoded);
    }

    private boolean keyIs(byte[] key, int s, int e) {
        if (e - s != key.length) {
            return false;
        }
        for (int i = 0; i < key.length; i++) {
            if (b[s + i] != key[i]) {
                return false;
            }
        }
        return true;
    }

    private int skipWs(int p) {
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                break;
            }
            p++;
        }
        return p;
    }

    /**
     * Skips one value starting at p, {@code depth} levels below the line's own object; returns the position
     * after it, or -1 after {@link #fail}. Its strings are held to the parser's limit when {@code parsed}
     * (the metadata parser decodes them).
     */
    private int value(int p, int depth, boolean parsed) {
        if (p < end && b[p] == '"') {
            return parsed ? limitedString(p, MAX_STRING_LENGTH, false, "a string") : string(p);
        }
        if (p < end && (b[p] == '{' || b[p] == '[')) {
            return container(p, depth, parsed);
        }
        return scalar(p);
    }

    /** Skips a number or a literal starting at p. */
    private int scalar(int p) {
        if (p >= end) {
            failAt("expected a value", p);
            return -1;
        }
        int s = p;
        while (p < end) {
            byte c = b[p];
            if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                break;
            }
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
                    || (c >= 'a' && c <= 'z') || c == 'N' || c == 'I')) {
                failAt("unexpected character '" + (char) c + "'", p);
                return -1;
            }
            p++;
        }
        if (p == s) {
            failAt("expected a value", p);
            return -1;
        }
        byte first = b[s];
        if ((first == 'N' || first == 'I' || (first == '-' && p - s > 1 && b[s + 1] == 'I')) && pythonNonFinite(s, p)) {
            return p; // tested by its first bytes: numbers and literals come by the million, and this made a string of each
        }
        if (first >= 'a' && first <= 'z' ? !literal(s, p) : !number(s, p)) {
            failAt(first >= 'a' && first <= 'z' ? "unknown literal" : "malformed number", s);
            return -1;
        }
        // the parser counts the digits of the integer, fraction and exponent parts (numbers are read even in
        // values it skips); the characters are an upper bound, so most numbers need no count
        if (p - s > MAX_NUMBER_LENGTH && digitCount(s, p) > MAX_NUMBER_LENGTH) {
            failAt("a number of more digits than the metadata parser's limit of " + MAX_NUMBER_LENGTH, s);
            return -1;
        }
        return p;
    }

    /** The number of decimal digits in {@code b[s:e]}. */
    private int digitCount(int s, int e) {
        int count = 0;
        for (int i = s; i < e; i++) {
            count += b[i] >= '0' && b[i] <= '9' ? 1 : 0;
        }
        return count;
    }

    /** {@link #string} for a field name, held to the parser's limit on names (decoded UTF-8 bytes). */
    private int name(int p) {
        int after = limitedString(p, MAX_NAME_LENGTH, true, "a field name");
        if (after - p - 2 == TOKEN_COUNT.length && Arrays.equals(b, p + 1, after - 1, TOKEN_COUNT, 0, TOKEN_COUNT.length)
                || (after >= 0 && lastStringEscaped)) { // an escaped name may spell it
            mayHoldTokenCount = true;
        }
        return after;
    }

    private static final byte[] TOKEN_COUNT = "token_count".getBytes(StandardCharsets.US_ASCII);

    /**
     * {@link #string}, failing when the string decodes to more than {@code limit} UTF-8 bytes, or UTF-16
     * characters, as the parser counts it.
     */
    private int limitedString(int p, int limit, boolean utf8, String what) {
        int after = string(p);
        // decoding never lengthens: a string of at most `limit` bytes here is within the limit, and only
        // longer ones are counted
        if (after >= 0 && after - p - 2 > limit && decodedLength(p + 1, after - 1, utf8) > limit) {
            failAt(what + " longer than the metadata parser's limit of " + limit + (utf8 ? " bytes" : " characters"), p);
            return -1;
        }
        return after;
    }

    /** The decoded length of the checked string body {@code b[s:e]}, in UTF-8 bytes or in UTF-16 characters. */
    private long decodedLength(int s, int e, boolean utf8) {
        long length = 0;
        for (int p = s; p < e; p++) {
            int c = b[p] & 0xFF;
            if (c == '\\') {
                if (b[p + 1] == 'u') {
                    int unit = Integer.parseInt(new String(b, p + 2, 4, StandardCharsets.US_ASCII), 16);
                    length += !utf8 ? 1 : unit < 0x80 ? 1 : unit < 0x800 || Character.isSurrogate((char) unit) ? 2 : 3;
                    p += 5;
                } else {
                    length++;
                    p++;
                }
            } else if (utf8) {
                length++;
            } else if (c >= 0xF0) {
                length += 2; // a surrogate pair
            } else if ((c & 0xC0) != 0x80) {
                length++;
            }
        }
        return length;
    }

    /** JSON's number grammar: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private boolean number(int s, int e) {
        int p = s;
        if (p < e && b[p] == '-') {
            p++;
        }
        if (p < e && b[p] == '0') {
            p++;
        } else {
            int digits = digits(p, e);
            if (digits == p) {
                return false;
            }
            p = digits;
        }
        if (p < e && b[p] == '.') {
            int digits = digits(p + 1, e);
            if (digits == p + 1) {
                return false;
            }
            p = digits;
        }
        if (p < e && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < e && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            int digits = digits(p, e);
            if (digits == p) {
                return false;
            }
            p = digits;
        }
        return p == e;
    }

    private int digits(int p, int e) {
        while (p < e && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p;
    }

    /**
     * NaN, Infinity or -Infinity: not JSON, but what Python's json.dumps (datatrove's writer) writes for such
     * floats and its json.loads reads; the metadata parser is told to read them too.
     */
    private boolean pythonNonFinite(int s, int e) {
        String w = new String(b, s, e - s, StandardCharsets.US_ASCII);
        return w.equals("NaN") || w.equals("Infinity") || w.equals("-Infinity");
    }

    private boolean literal(int s, int e) {
        String w = new String(b, s, e - s, StandardCharsets.US_ASCII);
        return w.equals("true") || w.equals("false") || w.equals("null");
    }

    /**
     * Skips an object or array starting at p, {@code depth} levels below the line's own object (the parser
     * counts one more, the line's object itself), checking
     * it as the JSON parser that reads the metadata later would: a line it would refuse is refused here,
     * with its position, and {@code on_error: skip} can skip it.
     */
    private int container(int p, int depth, boolean parsed) {
        if (depth >= MAX_NESTED_DEPTH) {
            failAt("objects and arrays nested deeper than " + MAX_NESTED_DEPTH + " levels", p);
            return -1;
        }
        boolean object = b[p] == '{';
        byte close = object ? (byte) '}' : (byte) ']';
        p = skipWs(p + 1);
        if (p < end && b[p] == close) {
            return p + 1;
        }
        while (true) {
            if (object) {
                if (p >= end || b[p] != '"') {
                    failAt("expected a field name", p);
                    return -1;
                }
                p = name(p);
                if (p < 0) {
                    return -1;
                }
                p = skipWs(p);
                if (p >= end || b[p] != ':') {
                    failAt("expected ':' after a field name", p);
                    return -1;
                }
                p = skipWs(p + 1);
            }
            p = value(p, depth + 1, parsed);
            if (p < 0) {
                return -1;
            }
            p = skipWs(p);
            if (p < end && b[p] == ',') {
                p = skipWs(p + 1);
            } else if (p < end && b[p] == close) {
                return p + 1;
            } else {
                failAt(p >= end ? "unterminated object or array" : "expected ',' or '" + (char) close + "'", p);
                return -1;
            }
        }
    }

    /** Skips a string starting at the quote at p; returns the position after the closing quote. */
    private int string(int p) {
        lastStringEscaped = false;
        lastStringExtraBytes = 0;
        int highSurrogateEnd = -1; // where a \\u escape of a high surrogate ended: a low one there completes the pair
        p++;
        while (true) {
            p = Bytes.indexOfStringSpecial(b, p, end);
            if (p >= end) {
                failAt("unterminated string", p);
                return -1;
            }
            int c = b[p];
            if (c == '"') {
                return p + 1;
            }
            if (c == '\\') {
                lastStringEscaped = true;
                int q = escape(p);
                if (q < 0) {
                    return -1;
                }
                // an escape is one code point (Python joins a \\u pair of surrogate halves into one)
                boolean lowHalf = q - p == 6 && unicodeEscape >= 0xDC00 && unicodeEscape <= 0xDFFF;
                lastStringExtraBytes += q - p - 1 + (lowHalf && p == highSurrogateEnd ? 1 : 0);
                highSurrogateEnd = q - p == 6 && unicodeEscape >= 0xD800 && unicodeEscape <= 0xDBFF ? q : -1;
                p = q;
                continue;
            }
            if (c >= 0) {
                failAt("control character 0x" + Integer.toHexString(c) + " in a string", p);
                return -1;
            }
            int n = utf8Length(p);
            if (n < 0) {
                return -1;
            }
            lastStringExtraBytes += n - 1;
            p += n;
        }
    }

    /** Checks the escape at p (a backslash); returns the position after it. */
    private int escape(int p) {
        if (p + 1 >= end) {
            failAt("unterminated string", end);
            return -1;
        }
        switch (b[p + 1]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return p + 2;
            }
            case 'u' -> {
                unicodeEscape = 0;
                for (int i = p + 2; i < p + 6; i++) {
                    int digit = i < end ? Character.digit(b[i], 16) : -1;
                    if (digit < 0) {
                        failAt("invalid \\u escape", p);
                        return -1;
                    }
                    unicodeEscape = unicodeEscape * 16 + digit;
                }
                return p + 6;
            }
            default -> {
                failAt("invalid escape", p);
                return -1;
            }
        }
    }

    /** Checks one multi-byte UTF-8 sequence at p; its length, or -1 with {@link #error} set. */
    private int utf8Length(int p) {
        int c = b[p] & 0xff;
        int n;
        int min;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            min = 0x10000;
        } else {
            failAt("invalid UTF-8 start byte 0x" + Integer.toHexString(c), p);
            return -1;
        }
        if (p + n > end) {
            failAt("invalid UTF-8: truncated sequence", p);
            return -1;
        }
        int cp = c & (0xff >> (n + 1));
        for (int i = 1; i < n; i++) {
            int cc = b[p + i] & 0xff;
            if ((cc & 0xc0) != 0x80) {
                failAt("invalid UTF-8 continuation byte 0x" + Integer.toHexString(cc), p + i);
                return -1;
            }
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            failAt("invalid UTF-8 sequence (overlong or surrogate)", p);
            return -1;
        }
        return n;
    }

    private boolean fail(String msg, int pos) {
        failAt(msg, pos);
        return false;
    }

    private void failAt(String msg, int pos) {
        if (error == null) {
            error = msg;
            errorPos = pos;
        }
    }

    /**
     * Decodes a JSON string body (between the quotes) to a Java string. Escapes are resolved into UTF-8
     * bytes first and the result decoded once: text escapes every line break, and decoding piece by
     * piece into a builder cost a string per line.
     */
    public static String decode(byte[] b, int start, int end, boolean escaped) {
        if (!escaped) {
            return new String(b, start, end - start, StandardCharsets.UTF_8);
        }
        byte[] out = new byte[end - start]; // an escape is never shorter than what it stands for
        int n = 0;
        int p = start;
        while (p < end) {
            int q = Bytes.indexOf(b, p, end, (byte) '\\');
            if (q < 0) {
                q = end;
            }
            System.arraycopy(b, p, out, n, q - p);
            n += q - p;
            if (q >= end) {
                break;
            }
            byte e = b[q + 1];
            switch (e) {
                case '"', '\\', '/' -> out[n++] = e;
                case 'b' -> out[n++] = '\b';
                case 'f' -> out[n++] = '\f';
                case 'n' -> out[n++] = '\n';
                case 'r' -> out[n++] = '\r';
                case 't' -> out[n++] = '\t';
                case 'u' -> {
                    if (q + 6 > end) {
                        throw new IllegalArgumentException("truncated \\u escape");
                    }
                    int c = Integer.parseInt(new String(b, q + 2, 4, StandardCharsets.US_ASCII), 16);
                    if (Character.isSurrogate((char) c)) {
                        return decodeSurrogateEscapes(b, start, end); // UTF-8 cannot hold a lone half
                    }
                    if (c < 0x80) {
                        out[n++] = (byte) c;
                    } else if (c < 0x800) {
                        out[n++] = (byte) (0xC0 | (c >> 6));
                        out[n++] = (byte) (0x80 | (c & 0x3F));
                    } else {
                        out[n++] = (byte) (0xE0 | (c >> 12));
                        out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                        out[n++] = (byte) (0x80 | (c & 0x3F));
                    }
                    p = q + 6;
                    continue;
                }
                default -> throw new IllegalArgumentException("invalid escape '\\" + (char) e + "'");
            }
            p = q + 2;
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** {@link #decode} for text with \\u escapes of surrogates, which may be lone halves: char by char. */
    private static String decodeSurrogateEscapes(byte[] b, int start, int end) {
        StringBuilder sb = new StringBuilder(end - start);
        int p = start;
        while (p < end) {
            int q = p;
            while (q < end && b[q] != '\\') {
                q++;
            }
            if (q > p) {
                sb.append(new String(b, p, q - p, StandardCharsets.UTF_8));
            }
            if (q >= end) {
                break;
            }
            char e = (char) b[q + 1];
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (q + 6 > end) {
                        throw new IllegalArgumentException("truncated \\u escape");
                    }
                    sb.append((char) Integer.parseInt(new String(b, q + 2, 4, StandardCharsets.US_ASCII), 16));
                    p = q + 6;
                    continue;
                }
                default -> throw new IllegalArgumentException("invalid escape '\\" + e + "'");
            }
            p = q + 2;
        }
        return sb.toString();
    }
}
