package io.sluice.dedup;

import io.sluice.text.EnglishText;
import java.util.ArrayList;
import java.util.List;

/**
 * The English words of a simplified text, with a per-instance cache from space-delimited chunk to
 * its tokens. spaCy tokenizes each space-delimited chunk on its own (and caches chunks itself), so
 * tokenizing chunk by chunk gives exactly {@code EnglishText.words(text)}; web text repeats the same
 * few thousand chunks, so most chunks are a hash lookup instead of a run of the tokenizer's rules.
 * The cache is an open-addressing table probed with the chunk's characters in place, so a hit
 * allocates nothing. Used only on text whose whitespace was normalised to single spaces.
 */
final class SimplifiedWords {
    private static final int MAX_ENTRIES = 1 << 18;
    private static final int MAX_CHUNK = 64;
    private String[] keys = new String[1 << 12];
    /** The keys' String hash codes: a probe compares characters only when the hash matches too. */
    private int[] keyHashes = new int[1 << 12];
    private String[][] values = new String[1 << 12][];
    private int size;

    /**
     * Adds the words of {@code text} (whitespace already normalised to ' ') to {@code out}. Most chunks
     * are plain lowercase words, which the tokenizer keeps whole: those are copied without a lookup in
     * the cache, whose table would otherwise be probed (and missed in the CPU caches) for every word.
     */
    void join(String text, JoinedWords out) {
        int n = text.length();
        int start = 0;
        while (start < n) {
            int end = start;
            boolean asciiLetters = true;
            char c;
            while (end < n && (c = text.charAt(end)) != ' ') {
                asciiLetters &= (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
                end++;
            }
            if (end == start) {
                // empty chunk: nothing
            } else if (asciiLetters && EnglishText.isWholeWord(text, start, end)) {
                out.addAscii(text, start, end);
            } else if (end - start > MAX_CHUNK) {
                for (String w : EnglishText.words(text.substring(start, end))) {
                    out.add(w);
                }
            } else {
                for (String w : tokens(text, start, end)) {
                    out.add(w);
                }
            }
            start = end + 1;
        }
    }

    /** Appends the words of {@code text} (whitespace already normalised to ' ') to {@code out}. */
    void words(String text, List<String> out) {
        int n = text.length();
        int start = 0;
        while (start < n) {
            int end = text.indexOf(' ', start);
            if (end < 0) {
                end = n;
            }
            if (end - start > MAX_CHUNK) {
                out.addAll(EnglishText.words(text.substring(start, end)));
            } else if (end > start) {
                for (String t : tokens(text, start, end)) {
                    out.add(t);
                }
            }
            start = end + 1;
        }
    }

    private String[] tokens(String text, int start, int end) {
        int len = end - start;
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + text.charAt(i);
        }
        int mask = keys.length - 1;
        int slot = mix(h) & mask;
        for (String k = keys[slot]; k != null; k = keys[slot]) {
            if (keyHashes[slot] == h && k.length() == len && text.regionMatches(start, k, 0, len)) {
                return values[slot];
            }
            slot = (slot + 1) & mask;
        }
        String chunk = text.substring(start, end);
        List<String> t = EnglishText.words(chunk);
        String[] tokens = t.size() == 1 && t.get(0).equals(chunk) ? new String[] {chunk} : t.toArray(new String[0]);
        put(chunk, h, tokens);
        return tokens;
    }

    private void put(String chunk, int h, String[] tokens) {
        if (size >= MAX_ENTRIES) {
            keys = new String[keys.length];
            keyHashes = new int[keys.length];
            values = new String[keys.length][];
            size = 0;
        } else if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int slot = mix(h) & mask;
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = chunk;
        keyHashes[slot] = h;
        values[slot] = tokens;
        size++;
    }

    private void grow() {
        String[] oldKeys = keys;
        String[][] oldValues = values;
        int[] oldHashes = keyHashes;
        keys = new String[oldKeys.length * 2];
        keyHashes = new int[keys.length];
        values = new String[keys.length][];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = mix(oldHashes[i]) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                keyHashes[slot] = oldHashes[i];
                values[slot] = oldValues[i];
            }
        }
    }

    /** Spreads String-style hash codes over the table's low bits. */
    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** Convenience for tests: the words as a new list. */
    List<String> words(String text) {
        List<String> out = new ArrayList<>();
        words(text, out);
        return out;
    }
}
