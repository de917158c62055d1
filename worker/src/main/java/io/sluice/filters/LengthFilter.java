package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.PyText;

/**
 * Keeps documents whose length lies within bounds: characters (code points, as Python's {@code len}),
 * whitespace-separated words (Python's {@code len(text.split())}), and lines ({@code \n}-separated).
 * Any bound may be left out.
 *
 * <p>Keys: {@code min_chars}, {@code max_chars}, {@code min_words}, {@code max_words}, {@code min_lines},
 * {@code max_lines}. Reasons: {@code too_few_chars}, {@code too_many_chars}, {@code too_few_words},
 * {@code too_many_words}, {@code too_few_lines}, {@code too_many_lines}.
 */
public final class LengthFilter extends Filter {
    private final Long minChars;
    private final Long maxChars;
    private final Long minWords;
    private final Long maxWords;
    private final Long minLines;
    private final Long maxLines;

    public LengthFilter(StepArgs args) {
        super(args);
        minChars = args.optionalInteger("min_chars");
        maxChars = args.optionalInteger("max_chars");
        minWords = args.optionalInteger("min_words");
        maxWords = args.optionalInteger("max_words");
        minLines = args.optionalInteger("min_lines");
        maxLines = args.optionalInteger("max_lines");
        for (String unit : new String[] {"chars", "words", "lines"}) {
            Long min = args.optionalInteger("min_" + unit);
            Long max = args.optionalInteger("max_" + unit);
            if (min != null && max != null && min > max) {
                throw args.error("min_" + unit, "is " + min + ", above max_" + unit + " (" + max + "): no document could pass");
            }
        }
    }

    @Override
    public Verdict filter(Document doc) {
        String t = doc.text();
        if (minChars != null || maxChars != null) {
            long chars = t.codePointCount(0, t.length());
            if (minChars != null && chars < minChars) {
                return Verdict.drop("too_few_chars");
            }
            if (maxChars != null && chars > maxChars) {
                return Verdict.drop("too_many_chars");
            }
        }
        if (minWords != null || maxWords != null) {
            long words = PyText.countWords(t);
            if (minWords != null && words < minWords) {
                return Verdict.drop("too_few_words");
            }
            if (maxWords != null && words > maxWords) {
                return Verdict.drop("too_many_words");
            }
        }
        if (minLines != null || maxLines != null) {
            long lines = t.isEmpty() ? 0 : PyText.count(t, '\n') + 1;
            if (minLines != null && lines < minLines) {
                return Verdict.drop("too_few_lines");
            }
            if (maxLines != null && lines > maxLines) {
                return Verdict.drop("too_many_lines");
            }
        }
        return Verdict.KEEP;
    }
}
