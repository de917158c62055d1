package io.sluice.simd;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte scans eight bytes at a time in a {@code long} (SWAR): plain text is mostly ASCII, so most
 * words are ruled out with a few arithmetic operations and only the word holding a hit is looked at
 * byte by byte.
 */
public final class ScalarByteScanKernel implements ByteScanKernel {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long SPACES = 0x2020202020202020L;
    private static final long NEWLINES = ONES * '\n';
    private static final long RETURNS = ONES * '\r';

    @Override
    public String name() {
        return "scalar (SWAR)";
    }

    /** Non-zero when some byte of {@code v} is zero (exact for "any", not for "which"). */
    private static long hasZero(long v) {
        return (v - ONES) & ~v & HIGHS;
    }

    @Override
    public int indexOf(byte[] b, int from, int to, byte value) {
        long pattern = ONES * (value & 0xFF);
        int i = from;
        for (; i + 8 <= to; i += 8) {
            if (hasZero((long) LONGS.get(b, i) ^ pattern) != 0) {
                break;
            }
        }
        for (; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int indexOfLineEnd(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(b, i);
            if ((hasZero(v ^ NEWLINES) | hasZero(v ^ RETURNS)) != 0) {
                break;
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n' || b[i] == '\r') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int indexOfStringSpecial(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(b, i);
            long special = hasZero(v ^ QUOTES) | hasZero(v ^ BACKSLASHES) | ((v - SPACES) & ~v & HIGHS) | (v & HIGHS);
            if (special != 0) {
                break;
            }
        }
        return firstSpecial(b, i, to);
    }

    static int firstSpecial(byte[] b, int i, int to) {
        for (; i < to; i++) {
            int c = b[i];
            if (c == '"' || c == '\\' || c < 0x20) { // bytes above 0x7F are negative in Java
                return i;
            }
        }
        return to;
    }
}
