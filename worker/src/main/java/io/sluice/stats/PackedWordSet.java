package io.sluice.stats;

import io.sluice.text.PackedChars;
import java.util.Arrays;
import java.util.List;

/**
 * A set of short words (up to {@link PackedChars#MAX_CHARS} UTF-16 units) keyed by their
 * {@link PackedChars packed characters}: word_stats' distinct words of a document, and its stop words.
 * A look-up compares three longs and the length, with no loop over the characters. Open addressing; a
 * slot's four longs (the key, then stamp and length) sit in one cache line.
 *
 * <p>One set serves a step's documents one after another ({@link #clear}); a slot is taken when its stamp
 * is the current document's, so clearing is one increment, and a small document's probes stay in the
 * first slots of a table sized for an earlier large one.
 */
final class PackedWordSet {
    /** Per slot: k0, k1, k2, then stamp << 32 | length. */
    private long[] slots = new long[0];
    private int stamp;
    private int mask;
    private int size;

    /** A set of the words among {@code words} short enough to be packed. */
    static PackedWordSet of(List<String> words) {
        PackedWordSet set = new PackedWordSet();
        set.clear(words.size());
        for (String w : words) {
            if (!w.isEmpty() && w.length() <= PackedChars.MAX_CHARS) {
                set.add(w);
            }
        }
        return set;
    }

    /** {@link #add(long, long, long, int, long)} for a word given as a string (1 to 12 units). */
    int add(String word) {
        long[] k = pack(word);
        return add(k[0], k[1], k[2], word.length(), PackedChars.hash(k[0], k[1], k[2]));
    }

    /** {@link #contains(long, long, long, int, long)} for a word given as a string (1 to 12 units). */
    boolean contains(String word) {
        long[] k = pack(word);
        return contains(k[0], k[1], k[2], word.length(), PackedChars.hash(k[0], k[1], k[2]));
    }

    private static long[] pack(String word) {
        char[] chars = (word + " ".repeat(PackedChars.MAX_CHARS)).toCharArray();
        return new long[] {PackedChars.pack(chars, 0, word.length(), 0), PackedChars.pack(chars, 0, word.length(), 1),
            PackedChars.pack(chars, 0, word.length(), 2)};
    }

    /** Empties the set, with room for {@code expected} words. */
    void clear(int expected) {
        size = 0;
        int capacity = TextRegionSet.capacityFor(expected);
        if (TextRegionSet.mustReplace(slots.length, capacity, stamp)) {
            slots = new long[4 * capacity];
            stamp = 0;
        }
        stamp++;
        mask = capacity - 1;
    }

    /** Doubles the slots in use, moving the current document's words (they would crowd the table past half full). */
    private void grow() {
        int oldCapacity = mask + 1;
        long[] old = Arrays.copyOf(slots, 4 * oldCapacity);
        int oldStamp = stamp;
        if (slots.length < 8 * oldCapacity || stamp == Integer.MAX_VALUE) {
            slots = new long[8 * oldCapacity];
            stamp = 0;
        }
        stamp++;
        mask = 2 * oldCapacity - 1;
        size = 0;
        for (int b = 0; b < 4 * oldCapacity; b += 4) {
            if ((int) (old[b + 3] >>> 32) == oldStamp) {
                long k0 = old[b];
                long k1 = old[b + 1];
                long k2 = old[b + 2];
                add(k0, k1, k2, (int) old[b + 3], PackedChars.hash(k0, k1, k2));
            }
        }
    }

    /**
     * Adds the word packed as (k0, k1, k2), of {@code length} units, whose {@link PackedChars#hash} is
     * {@code hash}: 1 when it was not in the set, else 0.
     */
    int add(long k0, long k1, long k2, int length, long hash) {
        if (2 * (size + 1) > mask + 1) {
            grow();
        }
        long[] s = slots;
        long meta = (long) stamp << 32 | length;
        for (int slot = (int) (hash >>> 32) & mask; ; slot = (slot + 1) & mask) {
            int b = slot << 2;
            long m = s[b + 3];
            boolean free = (int) (m >>> 32) != stamp;
            // One test for "free or the same word", and the slot written again when found: words are new
            // or seen before at random, and a branch on either mispredicted (the differences are or-ed
            // into one value, as C2 turns a chain of == into a branch each).
            long differs = (s[b] ^ k0) | (s[b + 1] ^ k1) | (s[b + 2] ^ k2) | (m ^ meta);
            if (free | differs == 0) {
                s[b] = k0;
                s[b + 1] = k1;
                s[b + 2] = k2;
                s[b + 3] = meta;
                int added = free ? 1 : 0;
                size += added;
                return added;
            }
        }
    }

    /** Is the word packed as (k0, k1, k2), of {@code length} units, with this {@code hash}, in the set? */
    boolean contains(long k0, long k1, long k2, int length, long hash) {
        long[] s = slots;
        long meta = (long) stamp << 32 | length;
        for (int slot = (int) (hash >>> 32) & mask; ; slot = (slot + 1) & mask) {
            int b = slot << 2;
            if ((int) (s[b + 3] >>> 32) != stamp) {
                return false;
            }
            if (((s[b] ^ k0) | (s[b + 1] ^ k1) | (s[b + 2] ^ k2) | (s[b + 3] ^ meta)) == 0) {
                return true;
            }
        }
    }
}
