package io.sluice.text;

import java.util.ArrayList;
import java.util.List;

/**
 * English word and sentence splitting shared by filters, statistics and MinHash: the single place
 * that decides what a "word" and a "sentence" are, so all steps agree.
 *
 * <p>INTERIM: whitespace words and a naive sentence split, until the spaCy-compatible tokenizer
 * (issue 4) replaces the two methods below. Callers must not depend on the interim behaviour.
 */
public final class EnglishText {
    private EnglishText() {
    }

    /** datatrove's {@code word_tokenize(text)} for English: token texts, stripped, empty ones dropped. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** datatrove's {@code split_into_sentences(text)} for English: sentence texts, stripped, empty ones dropped. */
    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String s : text.split("(?<=[.!?])\\s+")) {
            String t = s.strip();
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }
}
