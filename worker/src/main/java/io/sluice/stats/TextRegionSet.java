package io.sluice.stats;

/**
 * A set of regions of one text, two regions being equal when their characters are: the distinct words
 * or lines of a document without a substring and a hash-set entry each. Open addressing over
 * (hash, start, end), compared character by character on a hash match.
 *
 * <p>One set serves a step's documents one after another ({@link #clear}): a step runs on one thread,
 * and a fresh table per document cost more than the lookups (zeroing, and page faults for the large
 * documents' tables). A slot is taken when its stamp is the current document's, so clearing is one
 * increment rather than a pass over the table.
 */
final class TextRegionSet {
    /** Tables larger than this are not kept for the next document (one huge document would pin them). */
    private static final int MAX_KEPT_CAPACITY = 1 << 16;

    private String text = "";
    private int[] stamps = new int[0];
    private int[] hashes = new int[0];
    private int[] starts = new int[0];
    private int[] ends = new int[0];
    private int stamp;
    private int mask;
    private int size;

    /** Empties the set for regions of {@code newText}, with room for {@code expected} of them. */
    void clear(String newText, int expected) {
        text = newText;
        size = 0;
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2) - 1) << 1;
        if (capacity > stamps.length || stamps.length > MAX_KEPT_CAPACITY || stamp == Integer.MAX_VALUE) {
            stamps = new int[capacity];
            hashes = new int[capacity];
            starts = new int[capacity];
            ends = new int[capacity];
            stamp = 0;
        }
        stamp++;
        // The probes use the first `capacity` slots only: a small document stays in a few cache lines
        // of a table sized for an earlier large one.
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
        while (stamps[slot] == stamp) {
            if (hashes[slot] == h && ends[slot] - starts[slot] == length
                    && text.regionMatches(starts[slot], text, start, length)) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        stamps[slot] = stamp;
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
