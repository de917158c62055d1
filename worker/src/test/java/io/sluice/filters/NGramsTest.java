package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.text.WordSpans;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/**
 * The n-gram counts of Gopher repetition equal datatrove's, computed here the way datatrove does: join
 * the words into strings and count them. Texts from a small vocabulary repeat a lot, and words such as
 * "ab" + "c" and "a" + "bc" make glued n-grams equal across different word splits.
 */
class NGramsTest {
    private static final String[] VOCABULARY = {"a", "b", "ab", "c", "bc", "abc", "the", "cat", "😀", "é"};

    @Test
    void topAndRepeatedNGramsMatchCountingJoinedStrings() {
        Random random = new Random(42);
        for (int doc = 0; doc < 2000; doc++) {
            int length = random.nextInt(40);
            int vocabulary = 2 + random.nextInt(VOCABULARY.length - 1);
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < length; i++) {
                text.append(i == 0 ? "" : random.nextInt(10) == 0 ? "\n" : " ");
                text.append(VOCABULARY[random.nextInt(vocabulary)]);
            }
            String t = text.toString();
            WordSpans spans = Words.of(t);
            List<String> words = new ArrayList<>();
            for (int i = 0; i < spans.size(); i++) {
                words.add(t.substring(spans.start(i), spans.end(i)));
            }
            NGrams spaced = new NGrams(spans, " ");
            for (int n = 2; n <= 4; n++) {
                assertEquals(topDuplicate(words, n), spaced.topDuplicateChars(n), "top " + n + "-gram of: " + t);
            }
            NGrams glued = spaced.withSeparator("");
            for (int n = 5; n <= 10; n++) {
                assertEquals(allDuplicate(words, n), glued.allDuplicateChars(n), "repeated " + n + "-grams of: " + t);
            }
        }
    }

    @Test
    void sizesAskedOutOfOrderCountTheSame() {
        String t = "a b a b c a b c d a b c d";
        List<String> words = List.of(t.split(" "));
        NGrams ngrams = new NGrams(Words.of(t), " ");
        for (int n : new int[] {3, 2, 4, 3, 2}) {
            assertEquals(topDuplicate(words, n), ngrams.topDuplicateChars(n), "n = " + n);
        }
        assertEquals(3L * 5, ngrams.topDuplicateChars(3), "\"a b c\" three times");
    }

    /** datatrove's find_top_duplicate over " ".join n-grams: Counter.most_common(1), first seen wins ties. */
    private static long topDuplicate(List<String> words, int n) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i + n <= words.size(); i++) {
            counts.merge(String.join(" ", words.subList(i, i + n)), 1, Integer::sum);
        }
        String best = null;
        int bestCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best == null ? 0 : (long) best.codePointCount(0, best.length()) * bestCount;
    }

    /** datatrove's find_all_duplicate over "".join n-grams. */
    private static long allDuplicate(List<String> words, int n) {
        Set<String> seen = new HashSet<>();
        long repeated = 0;
        int i = 0;
        while (i + n <= words.size()) {
            String g = String.join("", words.subList(i, i + n));
            if (!seen.add(g)) {
                repeated += g.codePointCount(0, g.length());
                i += n;
            } else {
                i++;
            }
        }
        return repeated;
    }
}
