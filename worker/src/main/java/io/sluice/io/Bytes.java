package io.sluice.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte scans of the read path, eight bytes at a time (SWAR): the position of the next newline, and
 * of the next byte inside a JSON string that needs a closer look (quote, backslash, control
 * character or non-ASCII). Plain text is mostly ASCII, so most eight-byte words are skipped whole.
 */
public final class Bytes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;

    private Bytes() {
    }

    /** Non-zero when some byte of {@code v} is zero. */
    private static long hasZero(long v) {
        return (v - ONES) & ~v & HIGHS;
    }

    /** Index of the first {@code '\n'} in [from, to), or -1. */
    public static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long z = hasZero((long) LONGS.get(b, i) ^ NEWLINES);
            if (z != 0) {
                return i + (Long.numberOfTrailingZeros(z) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Index of the first byte in [from, to) that is a quote, a backslash, below 0x20 or above 0x7F:
     * the bytes a JSON string scanner must look at; {@code to} when there is none.
     */
    public static int indexOfStringSpecial(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(b, i);
            long special = hasZero(v ^ QUOTES) | hasZero(v ^ BACKSLASHES) | ((v - SPACES) & ~v & HIGHS) | (v & HIGHS);
            if (special != 0) {
                break; // the exact byte is found below; the word-level test may point at a later one
            }
        }
        for (; i < to; i++) {
            int c = b[i];
            if (c == '"' || c == '\\' || c < 0x20) { // non-ASCII bytes are negative in Java
                return i;
            }
        }
        return to;
    }
}
