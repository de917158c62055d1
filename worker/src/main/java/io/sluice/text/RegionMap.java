package io.sluice.text;

import java.util.Arrays;
import java.util.Map;

/**
 * A read-only string-keyed map that is queried with a region of a larger string, so the tokenizer's
 * many "is this chunk a special case?" questions allocate nothing. Open addressing, linear probing.
 */
final class RegionMap<V> {
    private final String[] keys;
    /** The keys again as arrays, for the tokenizer's lookups over a text's characters. */
    private final char[][] keyChars;
    private final Object[] values;
    private final int mask;
    private final int maxKeyLength;
    /**
     * Two cheap tests before any hashing: a bit per key length (31 standing for 31 and more) for each first
     * character (folded to 10 bits), which rejects most words with two loads; then a bit per (length,
     * first, second, last char) class.
     */
    private final int[] lengthsByFirstChar = new int[1024];
    private final long[] quickFilter = new long[1024];

    RegionMap(Map<String, V> entries) {
        int capacity = Integer.highestOneBit(Math.max(4, entries.size() * 4) - 1) << 1;
        keys = new String[capacity];
        keyChars = new char[capacity][];
        values = new Object[capacity];
        mask = capacity - 1;
        int max = 0;
        for (Map.Entry<String, V> e : entries.entrySet()) {
            String key = e.getKey();
            int slot = hash(key, 0, key.length()) & mask;
            while (keys[slot] != null) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            keyChars[slot] = key.toCharArray();
            values[slot] = e.getValue();
            max = Math.max(max, key.length());
            int bit = filterBit(key, 0, key.length());
            quickFilter[bit >>> 6] |= 1L << bit;
            if (!key.isEmpty()) {
                lengthsByFirstChar[key.charAt(0) & 1023] |= lengthBit(key.length());
            }
        }
        maxKeyLength = max;
    }

    /** The value whose key equals {@code s[from:to]}, or null. */
    V get(String s, int from, int to) {
        return get(s, from, to, false, 0);
    }

    /** {@link #get(String, int, int)} when the caller has the region's {@code String.hashCode} at hand. */
    V get(String s, int from, int to, int stringHash) {
        return get(s, from, to, true, stringHash);
    }

    @SuppressWarnings("unchecked")
    private V get(String s, int from, int to, boolean hashKnown, int stringHash) {
        int length = to - from;
        if (!mayContain(s, from, to)) {
            return null;
        }
        int slot = (hashKnown ? spread(stringHash) : hash(s, from, to)) & mask;
        String key;
        while ((key = keys[slot]) != null) {
            if (key.length() == length && s.regionMatches(from, key, 0, length)) {
                return (V) values[slot];
            }
            slot = (slot + 1) & mask;
        }
        return null;
    }

    /** {@link #get(String, int, int)} for a region of a char array (both hash alike). */
    V get(char[] s, int from, int to) {
        if (!mayContain(s, from, to)) {
            return null;
        }
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + s[i];
        }
        return find(s, from, to, h);
    }

    /** {@link #get(char[], int, int)} when the caller has the region's {@code String.hashCode} at hand. */
    V get(char[] s, int from, int to, int stringHash) {
        return mayContain(s, from, to) ? find(s, from, to, stringHash) : null;
    }

    @SuppressWarnings("unchecked")
    private V find(char[] s, int from, int to, int h) {
        int length = to - from;
        char[] key;
        for (int slot = spread(h) & mask; (key = keyChars[slot]) != null; slot = (slot + 1) & mask) {
            if (key.length == length && Arrays.equals(key, 0, length, s, from, to)) {
                return (V) values[slot];
            }
        }
        return null;
    }

    /** False when no key equals {@code s[from:to]}; true when one may (a cheap test, small enough to inline). */
    boolean mayContain(String s, int from, int to) {
        int length = to - from;
        if (length > maxKeyLength || length <= 0) {
            return false;
        }
        int bit = filterBit(s, from, to);
        return passes(s.charAt(from), length, bit);
    }

    /**
     * {@link #mayContain(String, int, int)} for a region of a char array: a copy rather than a shared helper
     * taking the three characters, so that neither version reads more than the first character for the
     * words the cheap tests reject.
     */
    boolean mayContain(char[] s, int from, int to) {
        int length = to - from;
        if (length > maxKeyLength || length <= 0) {
            return false;
        }
        int bit = filterBit(s[from], s[from + 1 < to ? from + 1 : from], s[to - 1], length);
        return passes(s[from], length, bit);
    }

    /**
     * Both cheap tests in one branch: the first alone passes half of all English words, so a branch on
     * it mispredicted for every other word, where both together pass about one word in thirty.
     */
    private boolean passes(char first, int length, int bit) {
        return ((lengthsByFirstChar[first & 1023] & lengthBit(length)) != 0) & ((quickFilter[bit >>> 6] & (1L << bit)) != 0);
    }

    private static int lengthBit(int length) {
        return 1 << Math.min(length, 31);
    }

    boolean containsKey(String s, int from, int to) {
        return get(s, from, to) != null;
    }

    /**
     * The filter's bit for {@code s[from:to]}: from its length and its first, second and last characters.
     * With only the first and last, common words ("had", "what", "his") shared a bit with special cases
     * ("hed", "wont", "hes") and paid for a hash and a compare.
     */
    private static int filterBit(String s, int from, int to) {
        return filterBit(s.charAt(from), s.charAt(from + 1 < to ? from + 1 : from), s.charAt(to - 1), to - from);
    }

    private static int filterBit(char first, char second, char last, int length) {
        int h = length * 0x01000193 ^ first;
        h = h * 0x01000193 ^ second;
        h = h * 0x01000193 ^ last;
        return (h * 0x9E3779B9) >>> 16;
    }

    private static int hash(String s, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + s.charAt(i);
        }
        return spread(h);
    }

    private static int spread(int stringHash) {
        return stringHash ^ (stringHash >>> 16);
    }
}
