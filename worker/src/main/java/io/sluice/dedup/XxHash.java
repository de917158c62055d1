package io.sluice.dedup;

/**
 * XXH64 and XXH32 (seed 0 by default), bit-exact with the reference xxHash 0.8 that python-xxhash
 * wraps ({@code xxh64_intdigest}, {@code xxh32_intdigest}). Written here rather than pulled in as a
 * dependency: the two functions are short, specified, and this version hashes a byte range of a
 * reused buffer without copying.
 */
public final class XxHash {
    private static final long P64_1 = 0x9E3779B185EBCA87L;
    private static final long P64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P64_3 = 0x165667B19E3779F9L;
    private static final long P64_4 = 0x85EBCA77C2B2AE63L;
    private static final long P64_5 = 0x27D4EB2F165667C5L;
    private static final int P32_1 = 0x9E3779B1;
    private static final int P32_2 = 0x85EBCA77;
    private static final int P32_3 = 0xC2B2AE3D;
    private static final int P32_4 = 0x27D4EB2F;
    private static final int P32_5 = 0x165667B1;

    private XxHash() {
    }

    public static long xxh64(byte[] b, int off, int len) {
        return xxh64(b, off, len, 0L);
    }

    public static long xxh64(byte[] b, int off, int len, long seed) {
        int end = off + len;
        int p = off;
        long h;
        if (len >= 32) {
            long v1 = seed + P64_1 + P64_2;
            long v2 = seed + P64_2;
            long v3 = seed;
            long v4 = seed - P64_1;
            int limit = end - 32;
            do {
                v1 = round64(v1, le64(b, p));
                v2 = round64(v2, le64(b, p + 8));
                v3 = round64(v3, le64(b, p + 16));
                v4 = round64(v4, le64(b, p + 24));
                p += 32;
            } while (p <= limit);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge64(h, v1);
            h = merge64(h, v2);
            h = merge64(h, v3);
            h = merge64(h, v4);
        } else {
            h = seed + P64_5;
        }
        h += len;
        while (p + 8 <= end) {
            h ^= round64(0, le64(b, p));
            h = Long.rotateLeft(h, 27) * P64_1 + P64_4;
            p += 8;
        }
        if (p + 4 <= end) {
            h ^= (le32(b, p) & 0xFFFFFFFFL) * P64_1;
            h = Long.rotateLeft(h, 23) * P64_2 + P64_3;
            p += 4;
        }
        while (p < end) {
            h ^= (b[p] & 0xFFL) * P64_5;
            h = Long.rotateLeft(h, 11) * P64_1;
            p++;
        }
        h ^= h >>> 33;
        h *= P64_2;
        h ^= h >>> 29;
        h *= P64_3;
        h ^= h >>> 32;
        return h;
    }

    public static int xxh32(byte[] b, int off, int len) {
        int end = off + len;
        int p = off;
        int h;
        if (len >= 16) {
            int v1 = P32_1 + P32_2;
            int v2 = P32_2;
            int v3 = 0;
            int v4 = -P32_1;
            int limit = end - 16;
            do {
                v1 = round32(v1, le32(b, p));
                v2 = round32(v2, le32(b, p + 4));
                v3 = round32(v3, le32(b, p + 8));
                v4 = round32(v4, le32(b, p + 12));
                p += 16;
            } while (p <= limit);
            h = Integer.rotateLeft(v1, 1) + Integer.rotateLeft(v2, 7) + Integer.rotateLeft(v3, 12)
                    + Integer.rotateLeft(v4, 18);
        } else {
            h = P32_5;
        }
        h += len;
        while (p + 4 <= end) {
            h += le32(b, p) * P32_3;
            h = Integer.rotateLeft(h, 17) * P32_4;
            p += 4;
        }
        while (p < end) {
            h += (b[p] & 0xFF) * P32_5;
            h = Integer.rotateLeft(h, 11) * P32_1;
            p++;
        }
        h ^= h >>> 15;
        h *= P32_2;
        h ^= h >>> 13;
        h *= P32_3;
        h ^= h >>> 16;
        return h;
    }

    private static long round64(long acc, long input) {
        acc += input * P64_2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P64_1;
    }

    private static long merge64(long h, long v) {
        h ^= round64(0, v);
        return h * P64_1 + P64_4;
    }

    private static int round32(int acc, int input) {
        acc += input * P32_2;
        acc = Integer.rotateLeft(acc, 13);
        return acc * P32_1;
    }

    private static long le64(byte[] b, int p) {
        return (long) LE_LONG.get(b, p);
    }

    private static int le32(byte[] b, int p) {
        return (int) LE_INT.get(b, p);
    }

    private static final java.lang.invoke.VarHandle LE_LONG = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LE_INT = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
}
