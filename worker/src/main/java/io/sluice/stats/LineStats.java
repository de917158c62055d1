package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    @Override
    protected void extract(String text, double[] out) {
        List<String> all = PyText.split(text, "\n");
        List<String> lines = all;
        if (ignoreEmptyLines) {
            lines = new ArrayList<>();
            for (String l : all) {
                if (!PyText.isBlank(l)) {
                    lines.add(l);
                }
            }
        }
        int n = lines.size();
        int[] lengths = new int[n];
        long totalLength = 0;
        long terminal = 0;
        long bullets = 0;
        long dupLines = 0;
        long dupChars = 0;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n; i++) {
            String line = lines.get(i);
            lengths[i] = PyText.len(line);
            totalLength += lengths[i];
            if (!line.isEmpty()) {
                char last = line.charAt(line.length() - 1);
                if (last == '.' || last == '?' || last == '!' || last == '"' || last == '\'') {
                    terminal++;
                }
            }
            if (isBullet(line)) {
                bullets++;
            }
            if (!seen.add(line)) {
                dupLines++;
                dupChars += lengths[i];
            }
        }
        int i = 0;
        out[i++] = all.size();
        out[i++] = ratio(totalLength, n);
        i = shareByLength(lengths, shortMax, longMin, out, i);
        out[i++] = ratio(terminal, n);
        out[i++] = ratio(bullets, n);
        out[i++] = ratio(dupLines, n);
        out[i] = ratio(dupChars, totalLength);
    }

    private static boolean isBullet(String line) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (!PyText.isSpace(c)) {
                return c == '-' || c == '*' || c == '•';
            }
        }
        return false;
    }
}
