package io.sluice.filters;

import io.sluice.text.EnglishText;
import io.sluice.text.Tokens;
import io.sluice.text.WordSpans;

/**
 * {@link EnglishText#words} (as offsets, {@link WordSpans}) of the text a filter saw last on this thread. Filters run one after
 * another on the same document (Gopher quality, then Gopher repetition, then FineWeb's word count), and
 * tokenizing is the costliest part of each, so the second one reuses the first one's words; datatrove
 * keeps an {@code lru_cache} for the same reason. The text is recognised by identity, which is safe
 * because a changed text is a new {@code String}.
 */
final class Words {
    private static final ThreadLocal<Words> LAST = ThreadLocal.withInitial(Words::new);

    private String text;
    private WordSpans words;
    /** The token list the words are taken from, reused for the thread's next text. */
    private final Tokens tokens = new Tokens(1 << 12);
    /** A text whose word count a filter that wrote it already knew (see {@link #rememberCount}). */
    private String countedText;
    private int count;

    private Words() {
    }

    static WordSpans of(String text) {
        Words last = LAST.get();
        if (last.text != text) {
            last.text = null; // not a valid entry should tokenizing fail
            EnglishText.tokenize(text, last.tokens);
            last.words = EnglishText.wordSpans(last.tokens);
            last.text = text;
        }
        return last.words;
    }

    /** The words of {@code text} if they are at hand on this thread, else null; never tokenizes. */
    static WordSpans peek(String text) {
        Words last = LAST.get();
        return last.text == text ? last.words : null;
    }

    /**
     * Records the number of words of a text a filter just made, when it could tell without tokenizing
     * (c4_quality, from the words of the lines it kept), for a later {@link #count}.
     */
    static void rememberCount(String text, int count) {
        Words last = LAST.get();
        last.countedText = text;
        last.count = count;
    }

    /** Whether {@link #count} of {@code text} will answer without tokenizing. */
    static boolean hasCount(String text) {
        return LAST.get().countedText == text;
    }

    /** The number of words of {@code text}: remembered, or from {@link #of}. */
    static int count(String text) {
        Words last = LAST.get();
        return last.countedText == text ? last.count : of(text).size();
    }
}
