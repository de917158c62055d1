package io.sluice.dedup;

import io.sluice.text.EnglishText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The English words of a simplified text, with a per-instance cache from space-delimited chunk to
 * its tokens. spaCy tokenizes each space-delimited chunk on its own (and caches chunks itself), so
 * tokenizing chunk by chunk gives exactly {@code EnglishText.words(text)}; web text repeats the same
 * few thousand chunks, so most chunks are a hash lookup instead of a run of the tokenizer's rules.
 * Used only on text whose whitespace was normalised to single spaces.
 */
final class SimplifiedWords {
    private static final int MAX_ENTRIES = 200_000;
    private static final int MAX_CHUNK = 64;
    private final HashMap<String, String[]> cache = new HashMap<>();

    /** Appends the words of {@code text} (whitespace already normalised to ' ') to {@code out}. */
    void words(String text, List<String> out) {
        int n = text.length();
        int start = 0;
        while (start < n) {
            int end = text.indexOf(' ', start);
            if (end < 0) {
                end = n;
            }
            if (end > start) {
                chunk(text.substring(start, end), out);
            }
            start = end + 1;
        }
    }

    private void chunk(String chunk, List<String> out) {
        if (chunk.length() > MAX_CHUNK) {
            out.addAll(EnglishText.words(chunk));
            return;
        }
        String[] tokens = cache.get(chunk);
        if (tokens == null) {
            if (cache.size() >= MAX_ENTRIES) {
                cache.clear();
            }
            List<String> t = EnglishText.words(chunk);
            tokens = t.size() == 1 && t.get(0).equals(chunk) ? new String[] {chunk} : t.toArray(new String[0]);
            cache.put(chunk, tokens);
        }
        for (String t : tokens) {
            out.add(t);
        }
    }

    /** Convenience for tests: the words as a new list. */
    List<String> words(String text) {
        List<String> out = new ArrayList<>();
        words(text, out);
        return out;
    }
}
