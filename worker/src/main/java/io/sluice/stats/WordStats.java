package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Step {@code word_stats} (datatrove's {@code WordStats}), words from {@link EnglishText#words}.
 * Stats: {@code n_words}, {@code avg_word_length}, {@code avg_words_per_line} (lines of Python's
 * {@code splitlines()}), {@code short_word_ratio_<k>} (length &lt;= k), {@code long_word_ratio_<k>}
 * (length &gt;= k), {@code type_token_ratio}, {@code uppercase_word_ratio} ({@code str.isupper}),
 * {@code capitalized_word_ratio} ({@code str.istitle}), {@code stop_word_ratio}.
 * Keys: {@code stop_words} (default the 8 Gopher stop words, case-sensitive),
 * {@code short_word_max_chars_threshold} ([3]), {@code long_word_max_chars_threshold} ([7]),
 * {@code language} (only "en").
 */
public final class WordStats extends StatsStep {
    static final List<String> GOPHER_STOP_WORDS = List.of("the", "be", "to", "of", "and", "that", "have", "with");

    private final Set<String> stopWords;
    /** UTF-16 length of the longest stop word: longer words skip the set lookup. */
    private final int longestStopWord;
    private final int[] shortThresholds;
    private final int[] longThresholds;

    public WordStats(StepArgs args) {
        super(args);
        stopWords = new HashSet<>(args.strings("stop_words", GOPHER_STOP_WORDS));
        longestStopWord = stopWords.stream().mapToInt(String::length).max().orElse(-1);
        shortThresholds = StatArgs.ints(args, "short_word_max_chars_threshold", new int[] {3}, true);
        longThresholds = StatArgs.ints(args, "long_word_max_chars_threshold", new int[] {7}, true);
        StatArgs.englishOnly(args);
        List<String> names = new ArrayList<>(List.of("n_words", "avg_word_length", "avg_words_per_line"));
        for (int k : shortThresholds) {
            names.add("short_word_ratio_" + k);
        }
        for (int k : longThresholds) {
            names.add("long_word_ratio_" + k);
        }
        names.addAll(List.of("type_token_ratio", "uppercase_word_ratio", "capitalized_word_ratio", "stop_word_ratio"));
        declare(names, StatArgs.firstIntegral(names.size()));
    }

    @Override
    protected void extract(String text, double[] out) {
        List<String> words = EnglishText.words(SharedTokens.of(text));
        int n = words.size();
        int[] lengths = new int[n];
        long totalLength = 0;
        long upper = 0;
        long title = 0;
        long stop = 0;
        for (int w = 0; w < n; w++) {
            String word = words.get(w);
            lengths[w] = PyText.len(word);
            totalLength += lengths[w];
            if (PyText.isUpperWord(word)) {
                upper++;
            }
            if (PyText.isTitleWord(word)) {
                title++;
            }
            if (word.length() <= longestStopWord && stopWords.contains(word)) {
                stop++;
            }
        }
        int i = 0;
        out[i++] = n;
        out[i++] = ratio(totalLength, n);
        out[i++] = ratio(n, PyText.countLines(text));
        for (int k : shortThresholds) {
            long c = 0;
            for (int len : lengths) {
                c += len <= k ? 1 : 0;
            }
            out[i++] = ratio(c, n);
        }
        for (int k : longThresholds) {
            long c = 0;
            for (int len : lengths) {
                c += len >= k ? 1 : 0;
            }
            out[i++] = ratio(c, n);
        }
        out[i++] = ratio(countDistinct(words), n);
        out[i++] = ratio(upper, n);
        out[i++] = ratio(title, n);
        out[i] = ratio(stop, n);
    }

    /**
     * {@code len(set(words))}, with an open-addressing table of the words instead of a HashSet: no
     * node per word, which was a fifth of this step's time beside the tokenizer.
     */
    static int countDistinct(List<String> words) {
        String[] table = new String[Integer.highestOneBit(Math.max(16, words.size() * 2) - 1) << 1];
        int mask = table.length - 1;
        int distinct = 0;
        for (String word : words) {
            int h = word.hashCode() * 0x9E3779B9;
            int slot = (h ^ (h >>> 16)) & mask;
            while (table[slot] != null && !table[slot].equals(word)) {
                slot = (slot + 1) & mask;
            }
            if (table[slot] == null) {
                table[slot] = word;
                distinct++;
            }
        }
        return distinct;
    }
}
