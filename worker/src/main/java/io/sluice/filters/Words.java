package io.sluice.filters;

import io.sluice.text.EnglishText;
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

    private Words() {
    }

    static WordSpans of(String text) {
        Words last = LAST.get();
        if (last.text != text) {
            last.words = EnglishText.wordSpans(EnglishText.tokenize(text));
            last.text = text;
        }
        return last.words;
    }
}
