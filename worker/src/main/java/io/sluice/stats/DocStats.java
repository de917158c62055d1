package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.PyText;
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
    /**
     * The character classes of every BMP code point, so each character of a text is one table lookup:
     * web text is full of curly quotes, dashes and accented letters, which otherwise cost four
     * property lookups each. 64 KB, filled once.
     */
    private static final byte[] BMP = new byte[0x10000];

    static {
        for (int c = 0; c < BMP.length; c++) {
            BMP[c] = (byte) computeClasses(c);
        }
    }

    private static int classes(int c) {
        return c < 0x10000 ? BMP[c] : computeClasses(c);
    }

    private static int computeClasses(int c) {
        return (PyText.isSpace(c) ? SPACE : 0) | (PyText.isDigit(c) ? DIGIT : 0) | (PyText.isAlpha(c) ? ALPHA : 0)
                | (PyText.isUpper(c) ? UPPER : 0) | (isPunctuation(c) ? PUNCT : 0);
    }

    @Override
    protected void extract(String text, double[] out) {
        long len = 0;
        long space = 0;
        long nonAlphaDigit = 0;
        long digit = 0;
        long upper = 0;
        long ellipsis = 0;
        long punct = 0;
        int dots = 0; // run of '.' not yet part of a counted "..."
        int n = text.length();
        for (int i = 0; i < n; i++) {
            int c = text.charAt(i);
            if (Character.isHighSurrogate((char) c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                c = Character.toCodePoint((char) c, text.charAt(++i));
            }
            len++;
            int k = classes(c);
            space += k & SPACE;
            digit += (k & DIGIT) >> 1;
            nonAlphaDigit += (k & (DIGIT | ALPHA)) == 0 ? 1 : 0;
            upper += (k & UPPER) >> 3;
            punct += (k & PUNCT) >> 4;
            if (c == '.') {
                if (++dots == 3) {
                    ellipsis += 3;
                    dots = 0;
                }
            } else {
                dots = 0;
                if (c == '…') {
                    ellipsis++;
                }
            }
        }
        out[0] = len;
        out[1] = ratio(space, len);
        out[2] = ratio(nonAlphaDigit, len);
        out[3] = ratio(digit, len);
        out[4] = ratio(upper, len);
        out[5] = ratio(ellipsis, len);
        out[6] = ratio(punct, len);
    }
}
