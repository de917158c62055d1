package io.sluice.text;

/**
 * Which simplifications {@link TextNormalizer#simplify} applies; datatrove's {@code TextNormConfig}.
 * {@link #DEFAULT} equals datatrove's defaults (weekday and month-name replacement off).
 */
public record TextNormConfig(boolean lowercase, boolean normWhitespace, boolean removePunctuation,
                             boolean normUnicodeDiacritics, boolean normNumbers, boolean normWeekdays,
                             boolean normMonthnames) {
    public static final TextNormConfig DEFAULT = new TextNormConfig(true, true, true, true, true, false, false);
}
