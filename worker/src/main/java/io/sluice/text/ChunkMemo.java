package io.sluice.text;

import io.sluice.simd.CharClassKernel;
import java.util.Arrays;

/**
 * A per-thread memo of how the tokenizer's rules split a chunk (a run of non-whitespace): chunk text
 * -> its tokens as offsets relative to the chunk. A chunk's tokens depend on its characters alone
 * (see {@link SpacyEnglishTokenizer}), and text repeats the same punctuated chunks ("it.", "(the",
 * "don't", "2024,") over and over, so a hash lookup replaces most runs of the prefix, suffix, infix and
 * URL rules. Like spaCy's own chunk cache, but bounded: when full it starts over. Only short chunks are
 * kept (long ones, e.g. URLs, rarely repeat). Open addressing, probed with the chunk's characters in
 * place, so a hit allocates nothing.
 *
 * <p>Chunks of up to {@link #INLINE} characters, most of them ("it.", ",", "2002", "don't"), have a
 * table of their own whose slots hold everything: the characters packed four to a long, and the token
 * ends and the match flag packed in a fourth long. A lookup there is one cache line and no pointer,
 * where the general table follows a key array and a value array (about 65 ns a hit, most of it
 * waiting for memory). That table is direct-mapped: a new chunk replaces whatever had its slot.
 */
final class ChunkMemo {
    static final int MAX_CHUNK = 40;
    /** Chunks up to this long go to the inline table; the tokenizer's arrays have this many characters to spare. */
    static final int INLINE = PackedChars.MAX_CHARS;
    private static final int INLINE_SLOTS_LOG = 15;
    private static final long OCCUPIED = 1L << 63;
    private static final long MAY_MATCH = 1L << 8;
    /** Per slot: the first four, next four and last four characters (zero-padded), then the meta. */
    private final long[] inline = new long[4 << INLINE_SLOTS_LOG];
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
    /** The character classes of the text being tokenized (see {@link #classesOf}). */
    private long[] classBits = new long[1 << 8];
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
     * size to the thread). Only the first {@code text.length()} characters are the text's; after them
     * come {@link #INLINE} + 1 zeros: the inline table reads that far past a chunk, and
     * {@code Character.codePointAt} over the whole array never pairs a lone high surrogate at the text's
     * end with a stale character.
     */
    char[] charsOf(String text) {
        int length = text.length();
        int needed = length + INLINE + 1;
        char[] c = chars;
        if (needed > MAX_REUSED_CHARS) {
            c = new char[needed];
        } else if (c.length < needed) {
            c = chars = new char[Math.min(MAX_REUSED_CHARS, Math.max(needed, 2 * c.length))];
        }
        text.getChars(0, length, c, 0);
        Arrays.fill(c, length, needed, '\0');
        return c;
    }

    /**
     * The {@link CharClasses} bitmaps of {@code chars[0:length]}, in an array this thread reuses up to the
     * size of a megabyte of text.
     */
    long[] classesOf(char[] chars, int length) {
        long[] bits = CharClasses.of(chars, length, classBits);
        if (bits != classBits && bits.length <= CharClassKernel.bitsLength(MAX_REUSED_CHARS)) {
            classBits = bits;
        }
        return bits;
    }

    private static long pack(char[] s, int from, int to, int k) {
        return PackedChars.pack(s, from, to, k);
    }

    private static int inlineSlot(long k0, long k1, long k2) {
        return PackedChars.slot(k0, k1, k2, INLINE_SLOTS_LOG) << 2;
    }

    /** {@link #addInline}'s answers; any other is the match flags of the chunk's tokens. */
    static final int NOT_FOUND = -1;
    static final int NO_MATCH = 0;
    static final int MAY_MATCH_UNKNOWN = -2;
    /** Where the meta keeps the match flags of the first three tokens (bits 9-56 hold up to 12 token ends). */
    private static final int FLAGS_SHIFT = 57;

    /**
     * Adds the remembered tokens of the chunk {@code text[start:end]} (at most {@link #INLINE}
     * characters) to {@code out}: returns {@link #NOT_FOUND} when it is not remembered (nothing added),
     * {@link #NO_MATCH} when none of its tokens may take part in a multi-token special case, the match
     * flags {@code putInline} was given when they are known, else {@link #MAY_MATCH_UNKNOWN}.
     */
    int addInline(char[] text, int start, int end, Tokens out) {
        long k0 = pack(text, start, end, 0);
        long k1 = pack(text, start, end, 1);
        long k2 = pack(text, start, end, 2);
        int b = inlineSlot(k0, k1, k2);
        long[] t = inline;
        long meta = t[b + 3];
        if (t[b] != k0 || t[b + 1] != k1 || t[b + 2] != k2 || (meta & (OCCUPIED | 0xF)) != (OCCUPIED | (end - start))) {
            return NOT_FOUND;
        }
        int count = (int) (meta >>> 4) & 0xF;
        int from = start;
        for (int i = 0; i < count; i++) {
            int to = start + ((int) (meta >>> (9 + 4 * i)) & 0xF);
            out.add(from, to);
            from = to;
        }
        if ((meta & MAY_MATCH) == 0) {
            return NO_MATCH;
        }
        int flags = (int) (meta >>> FLAGS_SHIFT) & 0x3F;
        return flags != 0 ? flags : MAY_MATCH_UNKNOWN;
    }

    /**
     * Remembers the tokens {@code out[from:]} as the split of the chunk {@code text[start:end]} (at most
     * {@link #INLINE} characters), with the match flags the tokenizer noted for them (0: none may take part).
     * Flags that fit in six bits are kept; larger ones are remembered only as "may take part".
     */
    void putInline(char[] text, int start, int end, Tokens out, int from, int matchFlags) {
        int count = out.size() - from;
        long meta = OCCUPIED | (end - start) | (long) count << 4 | (matchFlags != 0 ? MAY_MATCH : 0);
        if ((matchFlags & ~0x3F) == 0) {
            meta |= (long) matchFlags << FLAGS_SHIFT;
        }
        for (int i = 0; i < count; i++) {
            meta |= (long) (out.end(from + i) - start) << (9 + 4 * i);
        }
        long k0 = pack(text, start, end, 0);
        long k1 = pack(text, start, end, 1);
        long k2 = pack(text, start, end, 2);
        int b = inlineSlot(k0, k1, k2);
        inline[b] = k0;
        inline[b + 1] = k1;
        inline[b + 2] = k2;
        inline[b + 3] = meta;
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
