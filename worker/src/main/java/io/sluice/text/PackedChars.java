package io.sluice.text;

/**
 * A short region of a char array as three longs, four characters each, zero past its end: the key of the
 * tables that remember short chunks and words ({@link ChunkMemo}, word_stats' word table). Packing and
 * comparing three longs has no loop whose length depends on the word, so no mispredicted loop exit per word.
 * The array must have {@link #MAX_CHARS} - 1 readable characters past the region's end (their values do
 * not matter: they are masked off).
 */
public final class PackedChars {
    /** The longest region packed. */
    public static final int MAX_CHARS = 12;
    private static final long[] MASKS = {0, 0xFFFFL, 0xFFFF_FFFFL, 0xFFFF_FFFF_FFFFL, -1L};

    private PackedChars() {
    }

    /** Characters {@code s[from + 4k : from + 4k + 4]} as a long, those at or past {@code to} as 0. */
    public static long pack(char[] s, int from, int to, int k) {
        int at = from + 4 * k;
        long w = s[at] | (long) s[at + 1] << 16 | (long) s[at + 2] << 32 | (long) s[at + 3] << 48;
        return w & MASKS[Math.max(0, Math.min(4, to - at))];
    }

    /** True when all packed characters are ASCII (below 0x80). */
    public static boolean ascii(long k0, long k1, long k2) {
        return ((k0 | k1 | k2) & 0xFF80_FF80_FF80_FF80L) == 0;
    }

    /**
     * The characters of an {@link #ascii} key in {@code [lo, hi]}, as a bit mask: bit {@code i} for the
     * key's character {@code i}. Four characters at a time in their 16-bit lanes (no carry leaves a lane
     * for characters below 0x80), so a word's case is read without a loop over its characters.
     */
    public static int asciiInRange(long k0, long k1, long k2, char lo, char hi) {
        return lanes(k0, lo, hi) | lanes(k1, lo, hi) << 4 | lanes(k2, lo, hi) << 8;
    }

    private static int lanes(long x, char lo, char hi) {
        long ones = 0x0001_0001_0001_0001L;
        long atLeastLo = x + (0x8000 - lo) * ones;
        long aboveHi = x + (0x8000 - hi - 1) * ones;
        long inRange = (atLeastLo & ~aboveHi) >>> 15 & ones;
        // the lanes' bits 0, 16, 32, 48 gathered into bits 45-48 by one multiplication (no sums collide)
        return (int) ((inRange * 0x0000_2000_4000_8001L) >>> 45) & 0xF;
    }

    /** A slot number of {@code slotsLog} bits for the packed key (k0, k1, k2). */
    public static int slot(long k0, long k1, long k2, int slotsLog) {
        return (int) (hash(k0, k1, k2) >>> (64 - slotsLog));
    }

    /** A 64-bit hash of the packed key (k0, k1, k2), its high bits the best mixed. */
    public static long hash(long k0, long k1, long k2) {
        return (k0 + k1 * 0xC2B2AE3D27D4EB4FL + k2 * 0x165667B19E3779F9L) * 0x9E3779B97F4A7C15L;
    }
}
