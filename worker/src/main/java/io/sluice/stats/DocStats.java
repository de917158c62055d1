package io.sluice.stats;

import io.sluice.job.StepArgs;
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

    static boolean isPunctuation(int c) {
        return (c < 0xA0 && (c < 0x20 || c >= 0x7F) && c != '\t' && c != '\n') || PUNCTUATION.indexOf(c) >= 0;
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
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            len++;
            if (PyText.isSpace(c)) {
                space++;
            }
            boolean isDigit = PyText.isDigit(c);
            if (isDigit) {
                digit++;
            } else if (!PyText.isAlpha(c)) {
                nonAlphaDigit++;
            }
            if (PyText.isUpper(c)) {
                upper++;
            }
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
            if (isPunctuation(c)) {
                punct++;
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
