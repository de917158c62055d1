package io.sluice.stats;

import io.sluice.text.PackedChars;
import java.util.Arrays;

/**
 * word_stats' memory of the short words it has met: per word of up to {@link PackedChars#MAX_CHARS}
 * UTF-16 units, the facts word_stats computed for it (an int of its choosing) and the last document it
 * was seen in. Web text repeats a few ten thousand words over and over, so most words are found here,
 * in one cache line that recent documents have touched, and their first visit in a document is told by
 * the stamp: a per-document set of the distinct words touched a new cache line per word and was slower.
 *
 * <p>Direct-mapped: a new word replaces the one in its slot, unless that one was seen in the current
 * document, whose distinct count rests on it. Then the new word is {@link #TAKEN} for the rest of the
 * document (every visit finds the slot still held), and the caller counts it another way. Words of up
 * to four units, the most frequent and the fewest, have a region of their own, so that the long tail
 * of longer words does not push them out.
 */
final class ShortWordTable {
    /** {@link #visit}'s answer for a word not in the table; {@link #record} may add it. */
    static final int ABSENT = -1;
    /** {@link #visit}'s answer for a word whose slot holds another word of the current document. */
    static final int TAKEN = -2;
    /** Set in {@link #visit}'s answer on a word's first visit in the current document. */
    static final int FIRST_IN_DOCUMENT = 1 << 30;

    private static final int TINY_SLOTS_LOG = 12;
    private static final int SLOTS_LOG = 14;
    /** Per slot: the packed word (three longs), then the stamp of its last document, its facts and length. */
    private final long[] slots = new long[4 * ((1 << TINY_SLOTS_LOG) + (1 << SLOTS_LOG))];
    private int stamp = 1;
    /** The slot of the last visit, for {@link #record}. */
    private int lastSlot;

    /** Starts a new document: every word's next visit is its first in it. */
    void nextDocument() {
        if (++stamp == Integer.MAX_VALUE) {
            Arrays.fill(slots, 0);
            stamp = 1;
        }
    }

    /**
     * The facts recorded for the word packed as (k0, k1, k2) of {@code length} units, whose
     * {@link PackedChars#hash} is {@code hash}, with {@link #FIRST_IN_DOCUMENT} set on its first visit in
     * the document; else {@link #ABSENT} or {@link #TAKEN}.
     */
    int visit(long k0, long k1, long k2, int length, long hash) {
        int tiny = (int) (hash >>> (64 - TINY_SLOTS_LOG));
        int other = (1 << TINY_SLOTS_LOG) + (int) (hash >>> (64 - SLOTS_LOG));
        // chosen without a branch ((length - 5) >> 31 is all ones for a tiny word): lengths come at random
        int slot = other + ((tiny - other) & (length - 5) >> 31);
        int b = slot << 2;
        long[] t = slots;
        long meta = t[b + 3];
        if (t[b] == k0 && t[b + 1] == k1 && t[b + 2] == k2 && (meta & 0xF) == length) {
            int seen = (int) (meta >>> 32);
            t[b + 3] = (long) stamp << 32 | (meta & 0xFFFF_FFFFL);
            return (int) (meta >>> 4) & 0x0FFF_FFFF | (seen != stamp ? FIRST_IN_DOCUMENT : 0);
        }
        lastSlot = b;
        return (int) (meta >>> 32) == stamp ? TAKEN : ABSENT;
    }

    /**
     * Puts the word of the last {@link #visit}, which answered {@link #ABSENT}, in the table with its
     * {@code facts} (28 bits), as seen in this document.
     */
    void record(long k0, long k1, long k2, int length, int facts) {
        long[] t = slots;
        int b = lastSlot;
        t[b] = k0;
        t[b + 1] = k1;
        t[b + 2] = k2;
        t[b + 3] = (long) stamp << 32 | (long) (facts & 0x0FFF_FFFF) << 4 | length;
    }
}
