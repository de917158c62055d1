package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Step {@code paragraph_stats} (datatrove's {@code ParagraphStats}); paragraphs are
 * {@code text.split("\n\n")} without the whitespace-only ones. Stats: {@code n_paragraphs},
 * {@code avg_paragraph_length}, {@code short_paragraph_ratio_<k>} (length &lt;= k),
 * {@code long_paragraph_ratio_<k>} (length &gt;= k), {@code paragraph_duplicates},
 * {@code paragraph_char_duplicates}. Keys: {@code short_paragraph_max_chars_threshold} ([100]),
 * {@code long_paragraph_max_chars_threshold} ([1000]), {@code ignore_empty_paragraphs} (false; accepted
 * for datatrove compatibility, it changes nothing since empty paragraphs are always dropped).
 */
public final class ParagraphStats extends StatsStep {
    private final int[] shortMax;
    private final int[] longMin;

    public ParagraphStats(StepArgs args) {
        super(args);
        shortMax = StatArgs.ints(args, "short_paragraph_max_chars_threshold", new int[] {100}, true);
        longMin = StatArgs.ints(args, "long_paragraph_max_chars_threshold", new int[] {1000}, true);
        args.bool("ignore_empty_paragraphs", false);
        List<String> names = new ArrayList<>(List.of("n_paragraphs", "avg_paragraph_length"));
        for (int k : shortMax) {
            names.add("short_paragraph_ratio_" + k);
        }
        for (int k : longMin) {
            names.add("long_paragraph_ratio_" + k);
        }
        names.addAll(List.of("paragraph_duplicates", "paragraph_char_duplicates"));
        declare(names, StatArgs.firstIntegral(names.size()));
    }

    @Override
    protected void extract(String text, double[] out) {
        List<String> paragraphs = new ArrayList<>();
        for (String p : PyText.split(text, "\n\n")) {
            if (!PyText.isBlank(p)) {
                paragraphs.add(p);
            }
        }
        int n = paragraphs.size();
        int[] lengths = new int[n];
        long totalLength = 0;
        long dups = 0;
        long dupChars = 0;
        Set<String> seen = HashSet.newHashSet(n);
        for (int i = 0; i < n; i++) {
            lengths[i] = PyText.len(paragraphs.get(i));
            totalLength += lengths[i];
            if (!seen.add(paragraphs.get(i))) {
                dups++;
                dupChars += lengths[i];
            }
        }
        int i = 0;
        out[i++] = n;
        out[i++] = ratio(totalLength, n);
        i = shareByLength(lengths, shortMax, longMin, out, i);
        out[i++] = ratio(dups, n);
        out[i] = ratio(dupChars, totalLength);
    }
}
