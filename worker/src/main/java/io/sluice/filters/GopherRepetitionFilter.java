package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Gopher's repetition rules (Rae et al. 2021, table A1; datatrove's {@code GopherRepetitionFilter}):
 * duplicated paragraphs and lines (share of items and of characters), the most frequent 2-4-gram's
 * share of characters, and the share of characters in repeated 5-10-grams.
 *
 * <p>Keys (datatrove's names and defaults; {@code null} turns a check off): {@code dup_para_frac} 0.3,
 * {@code dup_para_char_frac} 0.2, {@code dup_line_frac} 0.3, {@code dup_line_char_frac} 0.2,
 * {@code top_n_grams} [[2, 0.2], [3, 0.18], [4, 0.16]], {@code dup_n_grams} [[5, 0.15], [6, 0.14],
 * [7, 0.13], [8, 0.12], [9, 0.11], [10, 0.1]].
 *
 * <p>Reasons: {@code dup_para_frac}, {@code dup_para_char_frac}, {@code dup_line_frac},
 * {@code dup_line_char_frac}, {@code top_<n>_gram}, {@code duplicated_<n>_n_grams}.
 *
 * <p>datatrove's quirks kept on purpose: paragraphs are {@code re.split(r"\n{2,}", text.strip())} but
 * lines are {@code re.split("\n+", text)} on the unstripped text (a leading or trailing newline gives an
 * empty line that can count as a duplicate); top n-grams are joined with a space and a count of 1 still
 * counts; repeated n-grams are joined with no separator. All character shares are divided by the
 * text's length in code points. Words are {@link EnglishText#words} (datatrove's
 * spaCy tokens). Deliberate difference: an empty text, where datatrove divides by zero, is kept (there is nothing repeated).
 */
public final class GopherRepetitionFilter extends Filter {
    private final Double dupParaFrac;
    private final Double dupParaCharFrac;
    private final Double dupLineFrac;
    private final Double dupLineCharFrac;
    private final List<double[]> topNGrams;
    private final List<double[]> dupNGrams;

    public GopherRepetitionFilter(StepArgs args) {
        super(args);
        EnglishText.requireEnglish(args);
        dupLineFrac = Thresholds.number(args, "dup_line_frac", 0.3);
        dupParaFrac = Thresholds.number(args, "dup_para_frac", 0.3);
        dupLineCharFrac = Thresholds.number(args, "dup_line_char_frac", 0.2);
        dupParaCharFrac = Thresholds.number(args, "dup_para_char_frac", 0.2);
        topNGrams = pairs(args, "top_n_grams", new double[][] {{2, 0.2}, {3, 0.18}, {4, 0.16}});
        dupNGrams = pairs(args, "dup_n_grams",
                new double[][] {{5, 0.15}, {6, 0.14}, {7, 0.13}, {8, 0.12}, {9, 0.11}, {10, 0.10}});
    }

    /** A list of {@code [n, fraction]} pairs, n a positive integer. */
    private static List<double[]> pairs(StepArgs args, String key, double[][] dflt) {
        Object raw = args.rawValue(key);
        List<double[]> out = new ArrayList<>();
        if (raw == null) {
            if (!args.raw().containsKey(key)) {
                out.addAll(List.of(dflt));
            }
            return out;
        }
        if (!(raw instanceof List<?> list)) {
            throw args.error(key, "must be a list of [n, fraction] pairs, e.g. [[2, 0.2], [3, 0.18]]");
        }
        for (Object o : list) {
            if (!(o instanceof List<?> p) || p.size() != 2 || !(p.get(0) instanceof Number n)
                    || !(p.get(1) instanceof Number f) || n.doubleValue() != Math.rint(n.doubleValue())
                    || n.doubleValue() < 1) {
                throw args.error(key, "must be a list of [n, fraction] pairs with n a positive integer, got "
                        + o);
            }
            // n as a double, which (int) saturates: intValue() wrapped 2^32 + 2 to 2, where datatrove finds no such n-grams
            out.add(new double[] {n.doubleValue(), f.doubleValue()});
        }
        return out;
    }

    @Override
    public Verdict filter(Document doc) {
        String text = doc.text();
        double textLen = PyText.len(text);
        if (textLen == 0) {
            return Verdict.KEEP;
        }

        String[] paragraphs = splitAtNewlineRuns(PyText.strip(text), 2);
        long[] dups = duplicates(paragraphs);
        if (dupParaFrac != null && (double) dups[0] / paragraphs.length > dupParaFrac) {
            return Verdict.drop("dup_para_frac");
        }
        if (dupParaCharFrac != null && dups[1] / textLen > dupParaCharFrac) {
            return Verdict.drop("dup_para_char_frac");
        }

        String[] lines = splitAtNewlineRuns(text, 1);
        dups = duplicates(lines);
        if (dupLineFrac != null && (double) dups[0] / lines.length > dupLineFrac) {
            return Verdict.drop("dup_line_frac");
        }
        if (dupLineCharFrac != null && dups[1] / textLen > dupLineCharFrac) {
            return Verdict.drop("dup_line_char_frac");
        }

        NGrams spaced = new NGrams(Words.of(text), " ");
        for (double[] t : topNGrams) {
            int n = (int) t[0];
            if (spaced.topDuplicateChars(n) / textLen > t[1]) {
                return Verdict.drop("top_" + n + "_gram");
            }
        }
        NGrams glued = spaced.withSeparator("");
        for (double[] t : dupNGrams) {
            int n = (int) t[0];
            if (glued.allDuplicateChars(n) / textLen > t[1]) {
                return Verdict.drop("duplicated_" + n + "_n_grams");
            }
        }
        return Verdict.KEEP;
    }

    /**
     * Python's {@code re.split(r"\n{k,}", s)} for k = {@code minRun}: cut at each maximal run of at least
     * k newlines, keeping empty parts at either end. A scan with indexOf instead of the regex, which
     * took a fifth of this filter's time.
     */
    static String[] splitAtNewlineRuns(String s, int minRun) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        int n = s.length();
        int i = s.indexOf('\n');
        while (i >= 0) {
            int j = i;
            while (j < n && s.charAt(j) == '\n') {
                j++;
            }
            if (j - i >= minRun) {
                parts.add(s.substring(start, i));
                start = j;
            }
            i = s.indexOf('\n', j);
        }
        parts.add(s.substring(start));
        return parts.toArray(String[]::new);
    }

    /**
     * datatrove's {@code find_duplicates}: {count, code points} of the items equal to an earlier one.
     */
    static long[] duplicates(String[] items) {
        Set<String> seen = HashSet.newHashSet(items.length);
        long count = 0;
        long chars = 0;
        for (String s : items) {
            if (!seen.add(s)) {
                count++;
                chars += PyText.len(s);
            }
        }
        return new long[] {count, chars};
    }

    static long[] duplicates(List<String> items) {
        return duplicates(items.toArray(new String[0]));
    }
}
