package io.sluice.dedup;

import io.sluice.text.EnglishText;
import io.sluice.text.SimplifiedChunks;

/**
 * The English words of a simplified text, written into {@link JoinedWords}. spaCy splits each
 * space-delimited chunk on its own, so tokenizing chunk by chunk gives {@code EnglishText.words(text)}
 * (the test checks it on real text). Most chunks are plain ASCII words, which the tokenizer keeps whole
 * unless they are a special case ("dont", "cannot"): those are copied straight in; the rest go through
 * the tokenizer, whose chunk memo makes repeats cheap. As a {@link SimplifiedChunks.Sink} it takes the
 * chunks as simplification produces them, without the simplified string.
 */
final class SimplifiedWords implements SimplifiedChunks.Sink {
    private final JoinedWords out;

    SimplifiedWords(JoinedWords out) {
        this.out = out;
    }

    @Override
    public void letters(char[] chars, int length) {
        if (EnglishText.isWholeWord(chars, length)) {
            out.addAscii(chars, length);
        } else {
            addWords(new String(chars, 0, length), out);
        }
    }

    @Override
    public void other(String chunk) {
        join(chunk, out);
    }

    /** Adds the words of {@code text}, a simplified text whose whitespace is single spaces. */
    static void join(String text, JoinedWords out) {
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
            } else {
                addWords(text.substring(start, end), out);
            }
            start = end + 1;
        }
    }

    private static void addWords(String chunk, JoinedWords out) {
        for (String w : EnglishText.words(chunk)) {
            out.add(w);
        }
    }
}
