package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.PyText;
import java.util.Arrays;
import java.util.List;

/**
 * Step {@code doc_stats} (datatrove's {@code DocStats}): character-level ratios of each document.
 * Stats: {@code length} (code points), {@code white_space_ratio}, {@code non_alpha_digit_ratio},
 * {@code digit_ratio}, {@code uppercase_ratio}, {@code elipsis_ratio} (characters in non-overlapping
 * "..." and "…"), {@code punctuation_ratio} (characters of datatrove's PUNCTUATION string). Character
 * classes are Python's ({@code isspace}, {@code isalpha}, {@code isdigit}, {@code isupper}).
 */
public final class DocStats extends StatsStep {
    /** datatrove's PUNCTUATION: symbols plus the C0 controls except \t and \n, DEL and the C1 controls. */
    static final String PUNCTUATION = "!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_.\"}►»";

    public DocStats(StepArgs args) {
        super(args);
        declare(List.of("length", "white_space_ratio", "non_alpha_digit_ratio", "digit_ratio", "uppercase_ratio",
                "elipsis_ratio", "punctuation_ratio"), List.of(true, false, false, false, false, false, false));
    }

    /** PUNCTUATION as a lookup table over the BMP (all of its characters are there). */
    private static final boolean[] IS_PUNCTUATION = new boolean[0x10000];

    static {
        for (int c = 0; c < 0xA0; c++) {
            IS_PUNCTUATION[c] = (c < 0x20 || c >= 0x7F) && c != '\t' && c != '\n';
        }
        for (int i = 0; i < PUNCTUATION.length(); i++) {
            IS_PUNCTUATION[PUNCTUATION.charAt(i)] = true;
        }
    }

    static boolean isPunctuation(int c) {
        return c < 0x10000 && IS_PUNCTUATION[c];
    }

    private static final int SPACE = 1;
    private static final int DIGIT = 2;
    private static final int ALPHA = 4;
    private static final int UPPER = 8;
    private static final int PUNCT = 16;
    private static final int HORIZONTAL_ELLIPSIS = 64;
    /** A UTF-16 surrogate: the pair is one code point, whose classes are looked up on the slow path. */
    private static final int SURROGATE = 128;
    /**
     * The character classes of every BMP code point, so each character of a text is one table lookup:
     * web text is full of curly quotes, dashes and accented letters, which otherwise cost four
     * property lookups each. 64 KB, filled once.
     */
    private static final byte[] BMP = new byte[0x10000];

    /**
     * Six counters packed in a long, 10 bits each: space, digit, neither digit nor alpha, upper,
     * punctuation, "…". Per character the loop adds {@code INCREMENTS[class]}, one add instead of six,
     * and unpacks into the totals after each block of {@link #BLOCK} characters (65 with a surrogate pair
     * at its end), long before a field could overflow.
     */
    private static final long[] INCREMENTS = new long[256];
    /** {@code INCREMENTS[BMP[c]]} for the ASCII characters: a block of ASCII needs one look-up per character. */
    private static final long[] ASCII_INCREMENTS = new long[128];
    private static final int FIELD = 10;
    private static final int FIELD_MASK = (1 << FIELD) - 1;
    private static final int BLOCK = 64;
    /** Characters copied out of the text at a time: the loop runs over an array, not String.charAt. */
    private static final int SLICE = 8192;

    static {
        for (int c = 0; c < BMP.length; c++) {
            int k = Character.isSurrogate((char) c) ? SURROGATE : computeClasses(c);
            k |= c == '\u2026' ? HORIZONTAL_ELLIPSIS : 0;
            BMP[c] = (byte) k;
        }
        for (int k = 0; k < INCREMENTS.length; k++) {
            // a lone surrogate is none of the classes: it counts only as neither digit nor alpha
            INCREMENTS[k] = pack(k);
        }
        for (int c = 0; c < ASCII_INCREMENTS.length; c++) {
            ASCII_INCREMENTS[c] = INCREMENTS[BMP[c] & 0xFF];
        }
    }

    private static long pack(int k) {
        return ((k & SPACE) != 0 ? 1L : 0)
                | ((k & DIGIT) != 0 ? 1L << FIELD : 0)
                | ((k & (DIGIT | ALPHA)) == 0 ? 1L << (2 * FIELD) : 0)
                | ((k & UPPER) != 0 ? 1L << (3 * FIELD) : 0)
                | ((k & PUNCT) != 0 ? 1L << (4 * FIELD) : 0)
                | ((k & HORIZONTAL_ELLIPSIS) != 0 ? 1L << (5 * FIELD) : 0);
    }

    private static int computeClasses(int c) {
        return (PyText.isSpace(c) ? SPACE : 0) | (PyText.isDigit(c) ? DIGIT : 0) | (PyText.isAlpha(c) ? ALPHA : 0)
                | (PyText.isUpper(c) ? UPPER : 0) | (isPunctuation(c) ? PUNCT : 0);
    }

    private final char[] slice = new char[SLICE];
    /** Totals in the packed counters' order. */
    private final long[] totals = new long[6];

    @Override
    protected void extract(String text, double[] out) {
        Arrays.fill(totals, 0);
        long len = text.length(); // less one per surrogate pair
        // str.count("..."): indexOf is a vectorised intrinsic, and a run counter in the loop below was a
        // dependency from each character to the next
        long ellipsisDots = 3L * PyText.count(text, "...");
        int n = text.length();
        for (int from = 0; from < n; ) {
            int to = Math.min(n, from + SLICE);
            if (to < n && Character.isHighSurrogate(text.charAt(to - 1))) {
                to--; // keep a pair in one slice
            }
            text.getChars(from, to, slice, 0);
            int m = to - from;
            for (int i = 0; i < m; ) {
                int limit = Math.min(m, i + BLOCK);
                long packed = 0;
                if (limit - i == BLOCK && isAsciiBlock(slice, i)) {
                    // most blocks of web text: one table entry per character, no surrogate to look for (loops
                    // of a constant BLOCK characters, which C2 unrolls and vectorises)
                    for (int j = 0; j < BLOCK; j++) {
                        packed += ASCII_INCREMENTS[slice[i + j]];
                    }
                    i += BLOCK;
                } else {
                    for (; i < limit; i++) {
                        int k = BMP[slice[i]] & 0xFF;
                        if (k >= SURROGATE && i + 1 < m && Character.isHighSurrogate(slice[i])
                                && Character.isLowSurrogate(slice[i + 1])) {
                            k = computeClasses(Character.toCodePoint(slice[i], slice[++i]));
                            len--;
                        }
                        packed += INCREMENTS[k];
                    }
                }
                unpack(packed);
            }
            from = to;
        }
        out[0] = len;
        out[1] = ratio(totals[0], len);
        out[2] = ratio(totals[2], len);
        out[3] = ratio(totals[1], len);
        out[4] = ratio(totals[3], len);
        out[5] = ratio(ellipsisDots + totals[5], len);
        out[6] = ratio(totals[4], len);
    }

    /** No character of {@code chars[from:from+BLOCK]} above U+007F. */
    private static boolean isAsciiBlock(char[] chars, int from) {
        int any = 0;
        for (int j = 0; j < BLOCK; j++) {
            any |= chars[from + j];
        }
        return any < 0x80;
    }

    private void unpack(long packed) {
        for (int f = 0; f < totals.length; f++) {
            totals[f] += (packed >>> (f * FIELD)) & FIELD_MASK;
        }
    }
}
