package io.sluice.stats;

import io.sluice.text.EnglishText;
import io.sluice.text.Tokens;

/**
 * The tokens of the document being processed, shared by {@code word_stats} and {@code sentence_stats}
 * in the same pipeline so a document is tokenized once (like datatrove's small tokenizer cache). One
 * entry per thread (a rank runs on one thread), matched by identity of the text string.
 */
final class SharedTokens {
    private record Entry(String text, Tokens tokens) {
    }

    private static final ThreadLocal<Entry> LAST = new ThreadLocal<>();

    private SharedTokens() {
    }

    static Tokens of(String text) {
        Entry e = LAST.get();
        if (e == null || e.text != text) {
            e = new Entry(text, EnglishText.tokenize(text));
            LAST.set(e);
        }
        return e.tokens;
    }
}
