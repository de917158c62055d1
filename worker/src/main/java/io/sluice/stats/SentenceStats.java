package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.List;

/**
 * Step {@code sentence_stats} (datatrove's {@code SentenceStats}), sentences from
 * {@link EnglishText#sentences} without whitespace-only ones. Stats: {@code n_sentences},
 * {@code avg_sentence_length}, {@code short_sentence_ratio_<k>} (length &lt;= k),
 * {@code long_sentence_ratio_<k>} (length &gt;= k). Keys: {@code short_sentence_max_chars_threshold}
 * ([20]), {@code long_sentence_max_chars_threshold} ([75]), {@code language} (English only: en, eng, en_Latn or eng_Latn).
 *
 * <p>datatrove splits English sentences with spaCy's sentencizer over its tokenizer; {@link EnglishText}
 * re-implements both, so the sentences are the same: on the five golden corpora (2,487 documents) the
 * per-document sentence counts have datatrove's distribution exactly (README, "Agreement with datatrove";
 * {@code GoldenTextParityTest}); checked offline against spaCy itself, document by document.
 */
public final class SentenceStats extends StatsStep {
    private final int[] shortMax;
    private final int[] longMin;

    public SentenceStats(StepArgs args) {
        super(args);
        shortMax = StatArgs.ints(args, "short_sentence_max_chars_threshold", new int[] {20}, true);
        longMin = StatArgs.ints(args, "long_sentence_max_chars_threshold", new int[] {75}, true);
        EnglishText.requireEnglish(args);
        List<String> names = new ArrayList<>(List.of("n_sentences", "avg_sentence_length"));
        for (int k : shortMax) {
            names.add("short_sentence_ratio_" + k);
        }
        for (int k : longMin) {
            names.add("long_sentence_ratio_" + k);
        }
        declare(names, StatArgs.firstIntegral(names.size()));
    }

    @Override
    protected void extract(String text, double[] out) {
        List<Integer> lengths = new ArrayList<>();
        long totalLength = 0;
        for (String s : EnglishText.sentences(SharedTokens.of(text))) {
            if (!PyText.isBlank(s)) {
                int len = PyText.len(s);
                lengths.add(len);
                totalLength += len;
            }
        }
        int n = lengths.size();
        int i = 0;
        out[i++] = n;
        out[i++] = ratio(totalLength, n);
        for (int k : shortMax) {
            long c = lengths.stream().filter(len -> len <= k).count();
            out[i++] = ratio(c, n);
        }
        for (int k : longMin) {
            long c = lengths.stream().filter(len -> len >= k).count();
            out[i++] = ratio(c, n);
        }
    }
}
