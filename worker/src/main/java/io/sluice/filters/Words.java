package io.sluice.filters;

import io.sluice.text.EnglishText;
import java.util.Collections;
import java.util.List;

/**
 * {@link EnglishText#words} of the text a filter saw last on this thread. Filters run one after
 * another on the same document (Gopher quality, then Gopher repetition, then FineWeb's word count), and
 * tokenizing is the costliest part of each, so the second one reuses the first one's words; datatrove
 * keeps an {@code lru_cache} for the same reason. The text is recognised by identity, which is safe
 * because a changed text is a new {@code String}.
 */
final class Words {
    private static final ThreadLocal<Words> LAST = ThreadLocal.withInitial(Words::new);

    private String text;
    private List<String> words;

    private Words() {
    }

    static List<String> of(String text) {
        Words last = LAST.get();
        if (last.text != text) {
            last.words = Collections.unmodifiableList(EnglishText.words(text));
            last.text = text;
        }
        return last.words;
    }
}
