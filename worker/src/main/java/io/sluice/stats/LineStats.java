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
     * Works on the line offsets over a char array of the text: the line ends come from indexOf (a vectorised
     * intrinsic), and each line is read once more for its hash (duplicates); no substring is made.
     */
    @Override
    protected void extract(String text, double[] out) {
        int textLength = text.length();
        char[] chars = charsOf(text);
        int all = lineEnds(text); // the parts of text.split("\n")
        int[] ends = lineEnds;
        int[] lengths = new int[all];
        // a line's length is in code points: it differs from its chars only where the text has a surrogate pair
        boolean pairs = text.codePointCount(0, textLength) != textLength;
        seen.clear(chars, all);
        int n = 0;
        long totalLength = 0;
        long terminal = 0;
        long bullets = 0;
        long dupLines = 0;
        long dupChars = 0;
        int start = 0;
        for (int line = 0; line < all; line++) {
            int end = ends[line];
            int first = start;
            while (first < end && PyText.isSpace(chars[first])) {
                first++;
            }
            boolean blank = first == end;
            if (!(ignoreEmptyLines && blank)) {
                int length = pairs ? Character.codePointCount(chars, start, end - start) : end - start;
                lengths[n++] = length;
                totalLength += length;
                if (end > start) {
                    char last = chars[end - 1];
                    if (last == '.' || last == '?' || last == '!' || last == '"' || last == '\'') {
                        terminal++;
                    }
                }
                char firstNonSpace = blank ? 0 : chars[first];
                if (firstNonSpace == '-' || firstNonSpace == '*' || firstNonSpace == '•') {
                    bullets++;
                }
                if (!seen.add(start, end, hash(chars, start, end))) {
                    dupLines++;
                    dupChars += length;
                }
            }
            start = end + 1;
        }
        if (ends.length > MAX_KEPT_LINES) {
            lineEnds = new int[64]; // one document of millions of lines does not hold its array for the rest of the rank
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

    private static final int MAX_KEPT_LINES = 1 << 16;
    /** Per line of the current text, where it ends (its '\n', or the text's end for the last); reused. */
    private int[] lineEnds = new int[64];

    /** Fills {@link #lineEnds} for {@code text}; returns the number of lines, one more than its '\n's. */
    private int lineEnds(String text) {
        int[] ends = lineEnds;
        int lines = 0;
        for (int i = text.indexOf('\n'); ; i = text.indexOf('\n', i + 1)) {
            if (lines == ends.length) {
                ends = lineEnds = Arrays.copyOf(ends, 2 * lines);
            }
            if (i < 0) {
                ends[lines++] = text.length();
                return lines;
            }
            ends[lines++] = i;
        }
    }

    /**
     * A hash of {@code chars[start:end]} for {@link TextRegionSet}: four interleaved polynomial hashes, so that the
     * multiply of one character does not wait for the previous one's (a single String-style hash did, at about four
     * cycles a character).
     */
    static int hash(char[] chars, int start, int end) {
        int h0 = 0;
        int h1 = 0;
        int h2 = 0;
        int h3 = 0;
        int i = start;
        for (; i <= end - 4; i += 4) {
            h0 = 31 * h0 + chars[i];
            h1 = 31 * h1 + chars[i + 1];
            h2 = 31 * h2 + chars[i + 2];
            h3 = 31 * h3 + chars[i + 3];
        }
        int h = ((h0 * 31 + h1) * 31 + h2) * 31 + h3;
        for (; i < end; i++) {
            h = 31 * h + chars[i];
        }
        return h;
    }
}
