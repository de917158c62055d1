package io.sluice.text;

import java.util.Arrays;

/**
 * An immutable set of Unicode code points with O(1) membership for the Basic Multilingual Plane
 * (a bit table) and a binary search over ranges above it.
 */
final class CodePointSet {
    private final long[] bmp = new long[65536 / 64];
    private final int[] supplementaryRanges; // sorted [lo, hi, lo, hi, ...], all >= 0x10000

    private CodePointSet(int[] ranges) {
        int[] sup = new int[ranges.length];
        int n = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            int lo = ranges[i];
            int hi = ranges[i + 1];
            for (int cp = lo; cp <= Math.min(hi, 0xFFFF); cp++) {
                bmp[cp >>> 6] |= 1L << cp;
            }
            if (hi > 0xFFFF) {
                sup[n++] = Math.max(lo, 0x10000);
                sup[n++] = hi;
            }
        }
        this.supplementaryRanges = Arrays.copyOf(sup, n);
    }

    /** A set from inclusive ranges given as consecutive (lo, hi) pairs, sorted by lo. */
    static CodePointSet ofRanges(int... ranges) {
        if (ranges.length % 2 != 0) {
            throw new IllegalArgumentException("ranges must come in (lo, hi) pairs");
        }
        return new CodePointSet(ranges);
    }

    /** A set of the code points of the given characters. */
    static CodePointSet of(String chars) {
        return ofRanges(chars.codePoints().sorted().distinct().flatMap(cp -> java.util.stream.IntStream.of(cp, cp)).toArray());
    }

    boolean contains(int cp) {
        if (cp <= 0xFFFF) {
            return cp >= 0 && (bmp[cp >>> 6] & (1L << cp)) != 0;
        }
        int lo = 0;
        int hi = supplementaryRanges.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (cp < supplementaryRanges[2 * mid]) {
                hi = mid - 1;
            } else if (cp > supplementaryRanges[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
