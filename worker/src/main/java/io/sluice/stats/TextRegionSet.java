package io.sluice.stats;

import java.util.Arrays;

/**
 * A set of regions of one text, two regions being equal when their characters are: the distinct words
 * or lines of a document without a substring and a hash-set entry each. Open addressing over
 * (hash, start, end), compared character by character on a hash match.
 */
final class TextRegionSet {
    private final String text;
    private final int[] hashes;
    private final int[] starts;
    private final int[] ends;
    private final int mask;
    private int size;

    TextRegionSet(String text, int expected) {
        this.text = text;
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2) - 1) << 1;
        hashes = new int[capacity];
        starts = new int[capacity];
        ends = new int[capacity];
        Arrays.fill(starts, -1);
        mask = capacity - 1;
    }

    /**
     * Adds {@code text[start:end]}, whose {@code String.hashCode} is {@code h}; false when an equal
     * region is in the set already.
     */
    boolean add(int start, int end, int h) {
        int m = h * 0x9E3779B9;
        int slot = (m ^ (m >>> 16)) & mask;
        int length = end - start;
        while (starts[slot] >= 0) {
            if (hashes[slot] == h && ends[slot] - starts[slot] == length
                    && text.regionMatches(starts[slot], text, start, length)) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        hashes[slot] = h;
        starts[slot] = start;
        ends[slot] = end;
        size++;
        return true;
    }

    int size() {
        return size;
    }
}
