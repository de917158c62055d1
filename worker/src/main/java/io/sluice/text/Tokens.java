package io.sluice.text;

import java.util.Arrays;

/**
 * The tokens of one text, as spaCy's {@code Doc} would hold them: each token is a range
 * {@code [start, end)} of the text (UTF-16 indices). Tokens are in text order and together with the
 * single spaces spaCy stores as "trailing whitespace" they cover the whole text. Whitespace other than
 * a single space between two tokens becomes a whitespace token of its own (datatrove drops those).
 */
public final class Tokens {
    private String text = "";
    private int[] starts;
    private int[] ends;
    private int size;

    /** An empty token list with room for {@code capacity} tokens (it grows as needed). */
    public Tokens(int capacity) {
        starts = new int[Math.max(capacity, 4)];
        ends = new int[starts.length];
    }

    void reset(String newText) {
        this.text = newText;
        this.size = 0;
    }

    void add(int start, int end) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    /**
     * Exchanges contents with {@code other}: the tokenizer builds a changed token list in a scratch
     * list it keeps, then swaps, so neither list's arrays are allocated again for the next text.
     */
    void swap(Tokens other) {
        String t = text;
        int[] s = starts;
        int[] e = ends;
        int n = size;
        text = other.text;
        starts = other.starts;
        ends = other.ends;
        size = other.size;
        other.text = t;
        other.starts = s;
        other.ends = e;
        other.size = n;
    }

    /**
     * Drops arrays with room for more than {@code maxTokens} tokens (and with them the tokens), so that a
     * list reused from text to text does not keep one huge text's arrays.
     */
    void release(int maxTokens) {
        if (starts.length > maxTokens) {
            starts = new int[16];
            ends = new int[16];
            size = 0;
        }
    }

    /** The tokenized text. */
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

    /** Token text, spaCy's {@code token.text}. */
    public String text(int i) {
        return text.substring(starts[i], ends[i]);
    }

    /** Is this a whitespace token (made only of characters Python's {@code isspace} accepts)? */
    public boolean isSpace(int i) {
        // Tokens never mix whitespace and other characters, so the first one decides.
        return PyText.isSpace(text.charAt(starts[i]));
    }
}
