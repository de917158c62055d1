package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Step {@code line_stats} (datatrove's {@code LineStats}); lines are {@code text.split("\n")}.
 * Stats: {@code n_lines} (before {@code ignore_empty_lines}), {@code avg_line_length},
 * {@code short_line_ratio_chars_<k>} (length &lt;= k), {@code long_line_ratio_chars_<k>} (length &gt;= k),
 * {@code lines_ending_with_terminal_mark_ratio} (. ? ! " '), {@code bullet_point_lines_ratio} (stripped
 * line starts with - * •), {@code line_duplicates}, {@code line_char_duplicates} (repeats of an
 * earlier line, by count and by characters). Keys (datatrove's names, typo included):
 * {@code max_k_chars_per_line_tresholds} ([10, 30]), {@code min_k_chars_per_line_thresholds}
 * ([2000, 10000]), {@code ignore_empty_lines} (false).
 */
public final class LineStats extends StatsStep {
    private final int[] shortMax;
    private final int[] longMin;
    private final boolean ignoreEmptyLines;
    private final TextRegionSet seen = new TextRegionSet();

    public LineStats(StepArgs args) {
        super(args);
        shortMax = StatArgs.ints(args, "max_k_chars_per_line_tresholds", new int[] {10, 30}, false);
        longMin = StatArgs.ints(args, "min_k_chars_per_line_thresholds", new int[] {2000, 10000}, false);
        ignoreEmptyLines = args.bool("ignore_empty_lines", false);
        List<String> names = new ArrayList<>(List.of("n_lines", "avg_line_length"));
        for (int k : shortMax) {
            names.add("short_line_ratio_chars_" + k);
        }
        for (int k : longMin) {
            names.add("long_line_ratio_chars_" + k);
        }
        names.addAll(List.of("lines_ending_with_terminal_mark_ratio", "bullet_point_lines_ratio", "line_duplicates",
                "line_char_duplicates"));
        declare(names, StatArgs.firstIntegral(names.size()));
    }

    /**
     * Works on the line offsets over a char array of the text: each line is read once for its hash
     * (duplicates), its length and its first non-space character; no substring is made.
     */
    @Override
    protected void extract(String text, double[] out) {
        int textLength = text.length();
        char[] chars = charsOf(text);
        int all = 1 + PyText.count(text, '\n'); // the parts of text.split("\n")
        int[] lengths = new int[all];
        seen.clear(chars, all);
        int n = 0;
        long totalLength = 0;
        long terminal = 0;
        long bullets = 0;
        long dupLines = 0;
        long dupChars = 0;
        for (int start = 0; start <= textLength; ) {
            int end = start;
            int h = 0;
            boolean surrogates = false;
            char firstNonSpace = 0;
            boolean blank = true;
            for (char c; end < textLength && (c = chars[end]) != '\n'; end++) {
                h = 31 * h + c;
                surrogates |= Character.isSurrogate(c);
                if (blank && !PyText.isSpace(c)) {
                    blank = false;
                    firstNonSpace = c;
                }
            }
            if (!(ignoreEmptyLines && blank)) {
                int length = surrogates ? Character.codePointCount(chars, start, end - start) : end - start;
                lengths[n++] = length;
                totalLength += length;
                if (end > start) {
                    char last = chars[end - 1];
                    if (last == '.' || last == '?' || last == '!' || last == '"' || last == '\'') {
                        terminal++;
                    }
                }
                if (firstNonSpace == '-' || firstNonSpace == '*' || firstNonSpace == '•') {
                    bullets++;
                }
                if (!seen.add(start, end, h)) {
                    dupLines++;
                    dupChars += length;
                }
            }
            start = end + 1;
        }
        if (n < all) {
            lengths = Arrays.copyOf(lengths, n);
        }
        int i = 0;
        out[i++] = all;
        out[i++] = ratio(totalLength, n);
        i = shareByLength(lengths, shortMax, longMin, out, i);
        out[i++] = ratio(terminal, n);
        out[i++] = ratio(bullets, n);
        out[i++] = ratio(dupLines, n);
        out[i] = ratio(dupChars, totalLength);
    }
}
