package io.sluice.text;

import java.util.Arrays;

/**
 * The words of a text as offsets into it: what datatrove's {@code word_tokenize} returns (token texts,
 * whitespace tokens dropped), without a {@code String} per word. Steps that only measure words (lengths,
 * character classes, equality) read them in place; {@link #word} makes the string when one is needed.
 */
public final class WordSpans {
    private final String text;
    private final int[] starts;
    private final int[] ends;
    private final int size;

    private WordSpans(String text, int[] starts, int[] ends, int size) {
        this.text = text;
        this.starts = starts;
        this.ends = ends;
        this.size = size;
    }

    /** The non-whitespace tokens of {@code tokens}. */
    public static WordSpans of(Tokens tokens) {
        int n = tokens.size();
        int[] starts = new int[n];
        int[] ends = new int[n];
        int size = 0;
        for (int i = 0; i < n; i++) {
            // Tokens are either all whitespace (stripped to nothing) or contain none: no strip needed.
            if (!tokens.isSpace(i)) {
                starts[size] = tokens.start(i);
                ends[size] = tokens.end(i);
                size++;
            }
        }
        return new WordSpans(tokens.text(), starts, ends, size);
    }

    public String text() {
        return text;
    }

    public int size() {
        return size;
    }

    public int start(int i) {
        return starts[i];
    }

    public int end(int i) {
        return ends[i];
    }

    /** UTF-16 length of word i. */
    public int length(int i) {
        return ends[i] - starts[i];
    }

    /** Word i as a string. */
    public String word(int i) {
        return text.substring(starts[i], ends[i]);
    }

    /** The number of words that start in {@code [from, to)} of the text. */
    public int countIn(int from, int to) {
        return firstAtOrAfter(to) - firstAtOrAfter(from);
    }

    private int firstAtOrAfter(int offset) {
        int i = Arrays.binarySearch(starts, 0, size, offset); // tokens are never empty: starts ascend strictly
        return i >= 0 ? i : -i - 1;
    }

    /** Are words a and b the same string? */
    public boolean sameWord(int a, int b) {
        int length = ends[a] - starts[a];
        return length == ends[b] - starts[b] && text.regionMatches(starts[a], text, starts[b], length);
    }
}
