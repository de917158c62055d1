package io.sluice.stats;

import io.sluice.text.EnglishText;
import io.sluice.text.Tokens;

/**
 * The tokens of the document being processed, shared by {@code word_stats} and {@code sentence_stats}
 * in the same pipeline so a document is tokenized once (like datatrove's small tokenizer cache). One
 * entry per thread (a rank runs on one thread), matched by identity of the text string. The token list
 * is reused for the thread's next document, so a caller reads it before asking for another text's.
 */
final class SharedTokens {
    private static final ThreadLocal<SharedTokens> LAST = ThreadLocal.withInitial(SharedTokens::new);

    private String text;
    private final Tokens tokens = new Tokens(1 << 12);

    private SharedTokens() {
    }

    /** The tokens of {@code text} if this thread has just tokenized it, else null. */
    static Tokens ifTokenized(String text) {
        SharedTokens last = LAST.get();
        return last.text == text ? last.tokens : null;
    }

    static Tokens of(String text) {
        SharedTokens last = LAST.get();
        if (last.text != text) {
            last.text = null; // not a valid entry should tokenizing fail
            EnglishText.tokenize(text, last.tokens);
            last.text = text;
        }
        return last.tokens;
    }
}
