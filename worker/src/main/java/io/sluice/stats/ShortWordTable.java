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
 *
 * <p>A word's slot also says whether the word, met as a whole chunk of text (a run between whitespace),
 * is one token whatever is around it; and the table keeps short chunks the tokenizer splits ("it.",
 * "(the") with their token ends. Then word_stats needs the tokenizer only for chunks it has not met.
 */
final class ShortWordTable {
    /** {@link #visit}'s answer for a word not in the table; {@link #record} may add it. */
    static final int ABSENT = -1;
    /** {@link #visit}'s answer for a word whose slot holds another word of the current document. */
    static final int TAKEN = -2;
    /** Set in {@link #visit}'s answer on a word's first visit in the current document. */
    static final int FIRST_IN_DOCUMENT = 1 << 30;

    /** {@link #visitChunk}'s answer for a chunk the tokenizer splits into several tokens ({@link #splitEnds}). */
    static final int SPLIT = -3;
    /** The most tokens a chunk recorded as {@link #SPLIT} has. */
    static final int MAX_SPLIT_TOKENS = 8;

    /** In a slot's meta: the word is also a chunk the tokenizer leaves whole (see {@link #markWholeChunk}). */
    private static final long WHOLE_CHUNK = 1L << 31;
    /** In a slot's meta: the slot holds a chunk of several tokens, their ends in the high half, and no stamp. */
    private static final long SPLIT_CHUNK = 1L << 30;
    private static final int FACTS = 0x03FF_FFFF;

    /*
     * 80 K slots, 2.5 MB: larger than the L2 cache, but a chunk not found costs the tokenizer, several times
     * a lookup. With 20 K slots (640 KB) 40% more chunks went to the tokenizer and word_stats took 15%
     * longer; 144 K slots were no faster.
     */
    private static final int TINY_SLOTS_LOG = 14;
    private static final int SLOTS_LOG = 16;
    /** Per slot: the packed word (three longs), then the stamp of its last document, flags, its facts and length. */
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
        int b = lastSlot = slotOf(hash, length);
        long[] t = slots;
        long meta = t[b + 3];
        if (t[b] == k0 && t[b + 1] == k1 && t[b + 2] == k2 && (meta & (SPLIT_CHUNK | 0xF)) == length) {
            return visited(b, meta);
        }
        return heldInThisDocument(meta) ? TAKEN : ABSENT;
    }

    /**
     * What is known of the chunk of text packed as (k0, k1, k2): if it is a word marked as a
     * {@link #markWholeChunk whole chunk}, what {@link #visit} answers for it; {@link #SPLIT} if it was
     * {@link #recordSplit recorded} with its tokens ({@link #splitEnds}); else {@link #ABSENT} or
     * {@link #TAKEN}, and the chunk does not count as visited.
     */
    int visitChunk(long k0, long k1, long k2, int length, long hash) {
        int b = lastSlot = slotOf(hash, length);
        long[] t = slots;
        long meta = t[b + 3];
        if (t[b] == k0 && t[b + 1] == k1 && t[b + 2] == k2 && (meta & 0xF) == length) {
            if ((meta & WHOLE_CHUNK) != 0) {
                return visited(b, meta);
            }
            if ((meta & SPLIT_CHUNK) != 0) {
                return SPLIT;
            }
        }
        return heldInThisDocument(meta) ? TAKEN : ABSENT;
    }

    /** Does the slot with this meta hold a word seen in the current document? */
    private boolean heldInThisDocument(long meta) {
        return (meta & SPLIT_CHUNK) == 0 && (int) (meta >>> 32) == stamp;
    }

    /** The meta of the slot a word with this hash and length would have: a load that brings the slot to the cache. */
    long peek(long hash, int length) {
        return slots[slotOf(hash, length) + 3];
    }

    private int slotOf(long hash, int length) {
        int tiny = (int) (hash >>> (64 - TINY_SLOTS_LOG));
        int other = (1 << TINY_SLOTS_LOG) + (int) (hash >>> (64 - SLOTS_LOG));
        // chosen without a branch ((length - 5) >> 31 is all ones for a tiny word): lengths come at random
        return other + ((tiny - other) & (length - 5) >> 31) << 2;
    }

    /** A found word's facts, and its visit in this document noted. */
    private int visited(int b, long meta) {
        int seen = (int) (meta >>> 32);
        slots[b + 3] = (long) stamp << 32 | (meta & 0xFFFF_FFFFL);
        return (int) (meta >>> 4) & FACTS | (seen != stamp ? FIRST_IN_DOCUMENT : 0);
    }

    /**
     * The token ends of the chunk {@link #visitChunk} answered {@link #SPLIT} for: four bits each, relative
     * to the chunk's start, the first token's lowest; the last is the chunk's length.
     */
    int splitEnds() {
        return (int) (slots[lastSlot + 3] >>> 32);
    }

    /**
     * Puts the chunk of the last {@link #visitChunk}, which answered {@link #ABSENT}, in the table as one
     * the tokenizer splits into tokens ending at {@code ends} (as {@link #splitEnds}: at most
     * {@link #MAX_SPLIT_TOKENS}), whatever is around it.
     */
    void recordSplit(long k0, long k1, long k2, int length, int ends) {
        putAtLastSlot(k0, k1, k2, (long) ends << 32 | SPLIT_CHUNK | length);
    }

    /**
     * Puts the word of the last {@link #visit}, which answered {@link #ABSENT}, in the table with its
     * {@code facts} (26 bits), as seen in this document.
     */
    void record(long k0, long k1, long k2, int length, int facts) {
        putAtLastSlot(k0, k1, k2, (long) stamp << 32 | (long) (facts & FACTS) << 4 | length);
    }

    private void putAtLastSlot(long k0, long k1, long k2, long meta) {
        long[] t = slots;
        int b = lastSlot;
        t[b] = k0;
        t[b + 1] = k1;
        t[b + 2] = k2;
        t[b + 3] = meta;
    }

    /**
     * Marks the word of the last {@link #visit} that found it (or of the last {@link #record}) as a chunk
     * of text the tokenizer leaves whole as this one word, whatever is around it: later visits of the
     * chunk then need no tokenizer.
     */
    void markWholeChunk() {
        slots[lastSlot + 3] |= WHOLE_CHUNK;
    }
}
