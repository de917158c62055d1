package io.sluice.stats;

import java.util.Arrays;

/**
 * A set of regions of one text, two regions being equal when their characters are: the distinct words
 * or lines of a document without a substring and a hash-set entry each. Open addressing over
 * (hash, start, length), compared character by character on a hash match; a slot's four ints sit
 * together, so a probe touches one cache line.
 *
 * <p>One set serves a step's documents one after another ({@link #clear}): a step runs on one thread,
 * and a fresh table per document cost more than the lookups (zeroing, and page faults for the large
 * documents' tables). A slot is taken when its stamp is the current document's, so clearing is one
 * increment rather than a pass over the table.
 */
final class TextRegionSet {
    /** Tables larger than this are not kept for the next document (one huge document would pin them). */
    private static final int MAX_KEPT_CAPACITY = 1 << 16;

    private char[] text = new char[0];
    /** Per slot: stamp, hash, start, length. */
    private int[] slots = new int[0];
    private int stamp;
    private int mask;
    private int size;

    /** Empties the set for regions of {@code newText}, with room for {@code expected} of them. */
    void clear(char[] newText, int expected) {
        text = newText;
        size = 0;
        int capacity = capacityFor(expected);
        if (mustReplace(slots.length, capacity, stamp)) {
            slots = new int[4 * capacity];
            stamp = 0;
        }
        stamp++;
        // The probes use the first `capacity` slots only: a small document stays in a few cache lines
        // of a table sized for an earlier large one.
        mask = capacity - 1;
    }

    /** The slots a per-document table uses for {@code expected} entries: a power of two, at least twice as many. */
    static int capacityFor(int expected) {
        return Integer.highestOneBit(Math.max(16, expected * 2) - 1) << 1;
    }

    /**
     * Must a per-document table whose array has {@code arrayLength} elements, four per slot, be replaced
     * before it serves {@code capacity} slots: too small, too large to keep, or out of stamps?
     */
    static boolean mustReplace(int arrayLength, int capacity, int stamp) {
        return 4 * capacity > arrayLength || arrayLength > 4 * MAX_KEPT_CAPACITY || stamp == Integer.MAX_VALUE;
    }

    /**
     * Adds {@code text[start:end]}, whose hash is {@code h} (any hash of the characters, one per set: equal regions
     * must get equal hashes); false when an equal region is in the set already.
     */
    boolean add(int start, int end, int h) {
        int m = h * 0x9E3779B9;
        int slot = (m ^ (m >>> 16)) & mask;
        int length = end - start;
        int[] s = slots;
        while (true) {
            int b = slot << 2;
            if (s[b] != stamp) {
                s[b] = stamp;
                s[b + 1] = h;
                s[b + 2] = start;
                s[b + 3] = length;
                size++;
                return true;
            }
            if (s[b + 1] == h && s[b + 3] == length && same(s[b + 2], start, length)) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean same(int a, int b, int length) {
        char[] t = text;
        if (length > 16) {
            return Arrays.equals(t, a, a + length, t, b, b + length);
        }
        for (int k = 0; k < length; k++) {
            if (t[a + k] != t[b + k]) {
                return false;
            }
        }
        return true;
    }

    int size() {
        return size;
    }
}
