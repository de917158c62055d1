package io.sluice.dedup;

import java.util.Arrays;

/**
 * A document's words joined by single spaces, as UTF-8, with the offset of every word: shingle i is
 * then the byte range from word i to word i+n-1, hashed in place, and each word is encoded once
 * rather than once per shingle it belongs to. Reused across documents.
 */
final class JoinedWords {
    private byte[] bytes = new byte[1 << 16];
    /** starts[k]: offset of word k; starts[count]: end of the last word + 1. */
    private int[] starts = new int[1 << 12];
    private int count;
    private int pos;

    void clear() {
        count = 0;
        pos = 0;
    }

    int count() {
        return count;
    }

    byte[] bytes() {
        return bytes;
    }

    /** Offset of word k; for k == count, one past the space after the last word. */
    int start(int k) {
        return k == count ? pos : starts[k];
    }

    /** Adds {@code text[start:end]}, which the caller knows to be ASCII. */
    void addAscii(String text, int start, int end) {
        begin(end - start);
        for (int i = start; i < end; i++) {
            bytes[pos++] = (byte) text.charAt(i);
        }
        bytes[pos++] = ' ';
    }

    /** Adds {@code chars[0:length]}, which the caller knows to be ASCII. */
    void addAscii(char[] chars, int length) {
        begin(length);
        for (int i = 0; i < length; i++) {
            bytes[pos++] = (byte) chars[i];
        }
        bytes[pos++] = ' ';
    }

    void add(String word) {
        add(word, 0, word.length());
    }

    /** Adds the word {@code text[start:end]}. */
    void add(String text, int start, int end) {
        begin((end - start) * 3);
        pos = encodeUtf8(text, start, end, bytes, pos);
        bytes[pos++] = ' ';
    }

    private void begin(int maxBytes) {
        if (count + 1 >= starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
        }
        if (pos + maxBytes + 1 > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(pos + maxBytes + 1, bytes.length * 2));
        }
        starts[count++] = pos;
    }

    /** UTF-8 like Python's {@code str.encode}; an unpaired surrogate (which Python rejects) becomes '?'. */
    private static int encodeUtf8(String s, int start, int end, byte[] dst, int pos) {
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[pos++] = (byte) c;
            } else if (c < 0x800) {
                dst[pos++] = (byte) (0xC0 | (c >> 6));
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[pos++] = (byte) (0xF0 | (cp >> 18));
                dst[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[pos++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                dst[pos++] = '?';
            } else {
                dst[pos++] = (byte) (0xE0 | (c >> 12));
                dst[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return pos;
    }
}
