package io.sluice.dedup;

import io.sluice.text.EnglishText;

/**
 * The English words of a simplified text (whitespace already normalised to single spaces), written
 * into {@link JoinedWords}. spaCy splits each space-delimited chunk on its own, so tokenizing chunk by
 * chunk gives {@code EnglishText.words(text)} (the test checks it on real text). Most chunks are plain
 * ASCII words, which the tokenizer keeps whole unless they are a special case ("dont", "cannot"): those
 * are copied straight in; the rest go through the tokenizer, whose chunk memo makes repeats cheap.
 */
final class SimplifiedWords {
    private SimplifiedWords() {
    }

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
                for (String w : EnglishText.words(text.substring(start, end))) {
                    out.add(w);
                }
            }
            start = end + 1;
        }
    }
}
