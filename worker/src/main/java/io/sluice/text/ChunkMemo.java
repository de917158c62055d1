package io.sluice.text;

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
    private static final ThreadLocal<ChunkMemo> MEMO = ThreadLocal.withInitial(ChunkMemo::new);

    /** The tokenizer's scratch space for this thread (a tokenization never starts another one on the same thread). */
    final SpacyEnglishTokenizer.Affixes affixes = new SpacyEnglishTokenizer.Affixes();
    private String[] keys = new String[1 << 10];
    private int[] keyHashes = new int[keys.length];
    /** Per key: token i is [start + v[2i], start + v[2i+1]) for a chunk starting at start. */
    private int[][] values = new int[keys.length][];
    private int size;

    private ChunkMemo() {
    }

    static ChunkMemo forThisThread() {
        return MEMO.get();
    }

    /** The memoised relative token offsets of {@code text[start:end]} (hash {@code h}), or null. */
    int[] get(String text, int start, int end, int h) {
        int length = end - start;
        int mask = keys.length - 1;
        for (int slot = mix(h) & mask; keys[slot] != null; slot = (slot + 1) & mask) {
            String k = keys[slot];
            if (keyHashes[slot] == h && k.length() == length && text.regionMatches(start, k, 0, length)) {
                return values[slot];
            }
        }
        return null;
    }

    /** Remembers the tokens {@code out[from:]} as the split of {@code text[start:end]} (hash {@code h}). */
    void put(String text, int start, int end, int h, Tokens out, int from) {
        int[] offsets = new int[2 * (out.size() - from)];
        for (int i = from; i < out.size(); i++) {
            offsets[2 * (i - from)] = out.start(i) - start;
            offsets[2 * (i - from) + 1] = out.end(i) - start;
        }
        if (size >= MAX_ENTRIES) {
            keys = new String[keys.length];
            keyHashes = new int[keys.length];
            values = new int[keys.length][];
            size = 0;
        } else if (2 * (size + 1) > keys.length) {
            grow();
        }
        insert(text.substring(start, end), h, offsets);
        size++;
    }

    static int hash(String text, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + text.charAt(i);
        }
        return h;
    }

    private void insert(String key, int h, int[] offsets) {
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
        String[] oldKeys = keys;
        int[] oldHashes = keyHashes;
        int[][] oldValues = values;
        keys = new String[oldKeys.length * 2];
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
