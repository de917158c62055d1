package io.sluice.dedup;

import io.sluice.text.EnglishText;
import io.sluice.text.SimplifiedChunks;
import io.sluice.text.Tokens;

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
    private final Tokens tokens = new Tokens(16);

    SimplifiedWords(JoinedWords out) {
        this.out = out;
    }

    @Override
    public void letters(char[] chars, int length) {
        if (EnglishText.isWholeLowercaseWord(chars, length)) {
            out.addAscii(chars, length);
        } else {
            addWords(new String(chars, 0, length));
        }
    }

    @Override
    public void other(String chunk) {
        if (chunk.length() == 1 && chunk.charAt(0) == '0') {
            // every number becomes "0": about one chunk in fifteen, and the tokenizer keeps it whole
            out.addAscii(chunk, 0, 1);
            return;
        }
        join(chunk);
    }

    /** Adds the words of {@code text}, a simplified text whose whitespace is single spaces. */
    void join(String text) {
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
                addWords(text.substring(start, end));
            }
            start = end + 1;
        }
    }

    /** The tokenizer's words of {@code chunk} (whitespace tokens are not words), encoded in place. */
    private void addWords(String chunk) {
        EnglishText.tokenize(chunk, tokens);
        for (int k = 0; k < tokens.size(); k++) {
            if (!tokens.isSpace(k)) {
                out.add(chunk, tokens.start(k), tokens.end(k));
            }
        }
    }
}
