package io.sluice.text;

/**
 * {@link TextNormalizer#simplify} in datatrove's default form (lowercase, numbers to "0", punctuation
 * and whitespace runs to one space, optionally diacritics stripped), delivered as the space-separated
 * chunks of the result in one pass over the text, with no intermediate string. MinHash only needs the
 * chunks (it tokenizes each on its own), and most are plain ASCII words that it can take as they are;
 * {@code simplify} joins them with spaces. Lowercasing per character equals
 * {@code toLowerCase(Locale.ROOT)} except for U+0130, which becomes two characters (written here as
 * such), and capital sigma, which depends on its neighbours: text holding one takes the step-by-step
 * path.
 *
 * <p>Diacritics are stripped chunk by chunk: NFD never reorders across a space and turns no other
 * character into whitespace, so that equals stripping the whole text. One instance per thread: the
 * buffers are reused.
 */
public final class SimplifiedChunks {
    /** Receives the chunks of a simplified text in order. */
    public interface Sink {
        /** {@code chars[0:length]} (length at least 1) holds only the ASCII letters a-z: most words of most text. */
        void letters(char[] chars, int length);

        /**
         * Any other chunk, diacritics already stripped; empty when stripping left nothing (the simplified
         * string then has two spaces in a row there).
         */
        void other(String chunk);
    }

    /*
     * What each BMP character becomes, from one table (a branch per kind of character, not per test: a
     * chain of rare tests made the JIT recompile this loop each time a new kind of space first appeared).
     * ASCII letters are taken before the table is read.
     */
    private static final byte SEPARATOR = 0; // Python whitespace or datatrove punctuation, not a digit
    private static final byte DIGIT = 1; // category Nd: starts a number, which becomes "0"
    private static final byte OTHER = 2; // kept, lowercased through LOWER
    private static final byte SPECIAL = 3; // U+0130, capital sigma, surrogates: handled one by one
    private static final byte[] KIND = new byte[0x10000];
    private static final char[] LOWER = new char[0x10000];
    /** Beyond this many chars a buffer is not kept for the next document. */
    private static final int KEEP_LIMIT = 1 << 20;

    static {
        for (int c = 0; c < 0x10000; c++) {
            char ch = (char) c;
            int lower = Character.toLowerCase(c);
            // numbers first: fullwidth digits are also punctuation, and datatrove replaces numbers first
            if (PyText.category(c) == Character.DECIMAL_DIGIT_NUMBER) {
                KIND[c] = DIGIT;
            } else if (PyText.isSpace(ch) || TextNormalizer.isPunctuation(ch)) {
                KIND[c] = SEPARATOR;
            } else if (Character.isSurrogate(ch) || c == '\u0130' || c == '\u03A3' || lower > 0xFFFF) {
                KIND[c] = SPECIAL;
            } else {
                KIND[c] = OTHER;
                LOWER[c] = (char) lower;
            }
        }
    }

    private char[] input = new char[256];
    private char[] chunk = new char[64];

    /** Whether {@link #split} applies: datatrove's default steps, with or without stripping diacritics. */
    public static boolean applies(TextNormConfig config) {
        return config.lowercase() && config.normNumbers() && !config.normWeekdays() && !config.normMonthnames()
                && config.removePunctuation() && config.normWhitespace();
    }

    /**
     * Sends the chunks of {@code simplify(text, config)} to {@code sink} and returns true; or returns
     * false, possibly after some chunks, when the text holds a capital sigma (the caller discards what it
     * got and simplifies step by step). {@code config} must be one that {@link #applies} to.
     */
    public boolean split(String text, TextNormConfig config, Sink sink) {
        if (!applies(config)) {
            throw new IllegalArgumentException("SimplifiedChunks does not apply to " + config);
        }
        boolean stripMarks = config.normUnicodeDiacritics();
        int n = text.length();
        char[] in = input = fit(input, n);
        text.getChars(0, n, in, 0);
        // every character but U+0130 gives at most one output character: room for the whole text, and U+0130
        // makes more
        char[] out = chunk = fit(chunk, n);
        int len = 0;
        boolean letters = true;
        int i = 0;
        while (i < n) {
            char c = in[i];
            if (isAsciiLetter(c)) {
                int start = i;
                while (++i < n && isAsciiLetter(c = in[i])) {
                    // find the end first: the copy below is then a counted loop
                }
                for (int k = start; k < i; k++) {
                    out[len + k - start] = (char) (in[k] | 0x20);
                }
                len += i - start;
                // most words end at a separator: take it here, a branch that is nearly always taken, rather
                // than through the switch below, whose jump was mispredicted at most word ends
                if (i < n && KIND[c] == SEPARATOR) {
                    i++;
                    emit(len, letters, stripMarks, sink);
                    len = 0;
                    letters = true;
                }
                continue;
            }
            switch (KIND[c]) {
                case SEPARATOR -> {
                    i++;
                    if (len > 0) {
                        emit(len, letters, stripMarks, sink);
                        len = 0;
                        letters = true;
                    }
                }
                case DIGIT -> {
                    i = TextNormalizer.skipNumber(text, i);
                    out[len++] = '0';
                    letters = false;
                }
                case OTHER -> {
                    out[len++] = LOWER[c];
                    i++;
                    letters = false;
                }
                default -> {
                    if (c == '\u03A3') {
                        return false;
                    }
                    if (c == '\u0130') {
                        // "i" and a combining dot above, as Python lowercases it (diacritic removal drops the dot);
                        // the one character that outgrows itself: room for it and one char per character left
                        int need = len + 2 + (n - i - 1);
                        if (need > out.length) {
                            out = chunk = java.util.Arrays.copyOf(out, Math.max(need, out.length + out.length / 2));
                        }
                        out[len++] = 'i';
                        out[len++] = '\u0307';
                        letters = false;
                        i++;
                        continue;
                    }
                    // a supplementary character (never whitespace or punctuation), a lone surrogate, or a
                    // character whose lowercase is supplementary (none today)
                    int cp = Character.codePointAt(in, i, n);
                    int width = Character.charCount(cp);
                    letters = false;
                    if (PyText.category(cp) == Character.DECIMAL_DIGIT_NUMBER) {
                        i = TextNormalizer.skipNumber(text, i);
                        out[len++] = '0';
                        continue;
                    }
                    int lower = Character.isSurrogate(c) && width == 1 ? c : Character.toLowerCase(cp);
                    if (Character.charCount(lower) != width) {
                        return false; // no such character today; keep the step-by-step path honest if one appears
                    }
                    len += Character.toChars(lower, out, len);
                    i += width;
                }
            }
        }
        if (len > 0) {
            emit(len, letters, stripMarks, sink);
        }
        return true;
    }

    private static boolean isAsciiLetter(char c) {
        return (char) ((c | 0x20) - 'a') < 26;
    }

    private void emit(int len, boolean letters, boolean stripMarks, Sink sink) {
        if (letters) {
            sink.letters(chunk, len);
            return;
        }
        String s = new String(chunk, 0, len);
        sink.other(stripMarks ? TextNormalizer.stripMarks(s) : s);
    }

    /** {@code buffer} if it holds {@code need} chars and is not a leftover of a huge document, else a new one. */
    private static char[] fit(char[] buffer, int need) {
        if (buffer.length >= need && (buffer.length <= KEEP_LIMIT || need > buffer.length / 4)) {
            return buffer;
        }
        return new char[Math.max(need, 64)];
    }
}
