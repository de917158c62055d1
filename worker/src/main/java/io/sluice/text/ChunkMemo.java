package io.sluice.text;

import java.util.Arrays;

/**
 * A per-thread memo of how the tokenizer's rules split a chunk (a run of non-whitespace): chunk text
 * -> its tokens as offsets relative to the chunk. A chunk's tokens depend on its characters alone
 * (see {@link SpacyEnglishTokenizer}), and text repeats the same punctuated chunks ("it.", "(the",
 * "don't", "2024,") over and over, so a hash lookup replaces most runs of the prefix, suffix, infix and
 * URL rules. Like spaCy's own chunk cache, but bounded: when full it starts over. Only short chunks are
 * kept (long ones, e.g. URLs, rarely repeat). Open addressing, probed with the chunk's characters in
 * place, so a hit allocates nothing.
 */
final class ChunkMemo {
    static final int MAX_CHUNK = 40;
    private static final int MAX_ENTRIES = 1 << 15;
    private static final int MAX_REUSED_CHARS = 1 << 20;
    private static final ThreadLocal<ChunkMemo> MEMO = ThreadLocal.withInitial(ChunkMemo::new);

    /** The tokenizer's scratch space for this thread (a tokenization never starts another one on the same thread). */
    final SpacyEnglishTokenizer.Affixes affixes = new SpacyEnglishTokenizer.Affixes();
    final SpacyEnglishTokenizer.MatchStarts matchStarts = new SpacyEnglishTokenizer.MatchStarts();
    /** Where the matcher builds a token list it changes (see {@link Tokens#swap}). */
    final Tokens mergedTokens = new Tokens(1 << 10);
    /** The characters of the text being tokenized (see {@link #charsOf}). */
    private char[] chars = new char[1 << 12];
    private char[][] keys = new char[1 << 10][];
    private int[] keyHashes = new int[keys.length];
    /**
     * Per key: token i is [start + v[2i], start + v[2i+1]) for a chunk starting at start; the last element
     * is 1 when a token may take part in a multi-token special case, else 0.
     */
    private int[][] values = new int[keys.length][];
    private int size;

    private ChunkMemo() {
    }

    static ChunkMemo forThisThread() {
        return MEMO.get();
    }

    /**
     * The characters of {@code text} in an array that this thread reuses for every text up to a
     * megabyte (longer texts get an array of their own, so that one huge document does not pin its
     * size to the thread). Only the first {@code text.length()} characters are the text's; the one
     * after them, if any, is 0, so that {@code Character.codePointAt} over the whole array never pairs
     * a lone high surrogate at the text's end with a stale character.
     */
    char[] charsOf(String text) {
        int length = text.length();
        if (length >= MAX_REUSED_CHARS) {
            return text.toCharArray();
        }
        if (chars.length <= length) {
            chars = new char[Math.min(MAX_REUSED_CHARS, Math.max(length + 1, 2 * chars.length))];
        }
        text.getChars(0, length, chars, 0);
        chars[length] = 0;
        return chars;
    }

    /** The memoised entry of {@code text[start:end]} (hash {@code h}), or null. */
    int[] get(char[] text, int start, int end, int h) {
        int length = end - start;
        int mask = keys.length - 1;
        char[] k;
        for (int slot = mix(h) & mask; (k = keys[slot]) != null; slot = (slot + 1) & mask) {
            if (keyHashes[slot] == h && k.length == length && Arrays.equals(k, 0, length, text, start, end)) {
                return values[slot];
            }
        }
        return null;
    }

    /** The number of tokens of an entry. */
    static int tokenCount(int[] entry) {
        return entry.length / 2;
    }

    /** The flag an entry was {@link #put} with. */
    static boolean mayTakePartInMatch(int[] entry) {
        return entry[entry.length - 1] != 0;
    }

    /** Remembers the tokens {@code out[from:]} as the split of {@code text[start:end]} (hash {@code h}). */
    void put(char[] text, int start, int end, int h, Tokens out, int from, boolean mayTakePartInMatch) {
        int[] offsets = new int[2 * (out.size() - from) + 1];
        offsets[offsets.length - 1] = mayTakePartInMatch ? 1 : 0;
        for (int i = from; i < out.size(); i++) {
            offsets[2 * (i - from)] = out.start(i) - start;
            offsets[2 * (i - from) + 1] = out.end(i) - start;
        }
        if (size >= MAX_ENTRIES) {
            keys = new char[keys.length][];
            keyHashes = new int[keys.length];
            values = new int[keys.length][];
            size = 0;
        } else if (2 * (size + 1) > keys.length) {
            grow();
        }
        insert(Arrays.copyOfRange(text, start, end), h, offsets);
        size++;
    }

    static int hash(char[] text, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + text[i];
        }
        return h;
    }

    private void insert(char[] key, int h, int[] offsets) {
        int mask = keys.length - 1;
        int slot = mix(h) & mask;
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        keyHashes[slot] = h;
        values[slot] = offsets;
    }

    private void grow() {
        char[][] oldKeys = keys;
        int[] oldHashes = keyHashes;
        int[][] oldValues = values;
        keys = new char[oldKeys.length * 2][];
        keyHashes = new int[keys.length];
        values = new int[keys.length][];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldHashes[i], oldValues[i]);
            }
        }
    }

    /** Spreads String-style hash codes over the table's low bits. */
    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
