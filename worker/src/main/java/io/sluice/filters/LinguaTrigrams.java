package io.sluice.filters;

import com.github.pemistahl.lingua.api.Language;
import com.github.pemistahl.lingua.api.LanguageDetector;
import com.github.pemistahl.lingua.internal.Ngram;
import com.github.pemistahl.lingua.internal.TestDataLanguageModel;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * lingua's {@code computeLanguageConfidenceValues} with the same numbers, for the texts it scores by
 * trigrams alone (all texts in its low-accuracy mode, texts of 120 characters and more otherwise):
 * lingua looks each of a text's trigrams up in one hash map per candidate language (about 40 for Latin
 * script), on its common fork-join pool, and that was 70% of the language filter's time. Here one map
 * per n-gram order holds, for each n-gram, the languages that know it and its log-probability in each,
 * built once from lingua's own loaded models; a document costs one lookup per trigram (plus its bigram
 * and unigram where some language lacks the trigram: lingua's back-off).
 *
 * <p>Everything else is lingua's own code, called through its Kotlin-internal methods (public in the
 * bytecode, with {@code $lingua} in their names): the text clean-up, the script and character rules,
 * the set of trigrams, the summing. lingua is pinned (1.2.2, its last JVM release);
 * {@code LinguaTrigramsTest} checks that the results equal lingua's on real text in many languages, so
 * a change inside lingua shows up there. Per language the log-probabilities are added as floats in the
 * same order as lingua adds them, so the sums are bit-identical.
 */
final class LinguaTrigrams {
    /** lingua switches from 1..5-grams to trigrams alone at this length of the cleaned text. */
    private static final int TRIGRAMS_ONLY_FROM = 120;

    private final LanguageDetector detector;
    private final boolean lowAccuracy;
    private final Pattern noLetter;
    /** byOrder[n - 1]: n-gram -> the languages that know it and its log-probability in each. */
    private final List<Map<String, Known>> byOrder = new ArrayList<>();

    /** The languages knowing one n-gram (ordinals) and the n-gram's {@code (float) ln p} in each. */
    private record Known(int[] languages, float[] logProbabilities) {
        Known(int language, float logProbability) {
            this(new int[] {language}, new float[] {logProbability});
        }

        Known plus(Known other) {
            int k = languages.length;
            int[] ls = Arrays.copyOf(languages, k + other.languages.length);
            float[] lp = Arrays.copyOf(logProbabilities, ls.length);
            System.arraycopy(other.languages, 0, ls, k, other.languages.length);
            System.arraycopy(other.logProbabilities, 0, lp, k, other.logProbabilities.length);
            return new Known(ls, lp);
        }
    }

    LinguaTrigrams(LanguageDetector detector) {
        this.detector = detector;
        this.lowAccuracy = detector.isLowAccuracyModeEnabled$lingua();
        try {
            Object constant = Class.forName("com.github.pemistahl.lingua.internal.Constant").getField("INSTANCE").get(null);
            Object regex = constant.getClass().getMethod("getNO_LETTER").invoke(constant);
            noLetter = (Pattern) regex.getClass().getMethod("toPattern").invoke(regex);
            Object companion = LanguageDetector.class.getField("Companion").get(null);
            Method load = companion.getClass().getMethod("access$loadLanguageModels", companion.getClass(),
                    EnumMap.class, Language.class, int.class);
            String[] getters = {"getUnigramLanguageModels$lingua", "getBigramLanguageModels$lingua",
                "getTrigramLanguageModels$lingua"};
            for (int n = 1; n <= 3; n++) {
                EnumMap<?, ?> cache = (EnumMap<?, ?>) companion.getClass().getMethod(getters[n - 1]).invoke(companion);
                Map<String, Known> known = new HashMap<>();
                for (Language language : detector.getLanguages$lingua()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Float> model = (Map<String, Float>) load.invoke(null, companion, cache, language, n);
                    for (Map.Entry<String, Float> e : model.entrySet()) {
                        float p = e.getValue();
                        if (p > 0) {
                            known.merge(e.getKey(), new Known(language.ordinal(), (float) Math.log(p)), Known::plus);
                        }
                    }
                }
                byOrder.add(known);
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("lingua's internals are not what this build expects (lingua 1.2.2): " + e, e);
        }
    }

    /** What {@code detector.computeLanguageConfidenceValues(text)} returns, best first. */
    SortedMap<Language, Double> confidences(String text) {
        String cleaned = detector.cleanUpInputText$lingua(text);
        if (cleaned.isEmpty() || noLetter.matcher(cleaned).matches()) {
            return new TreeMap<>();
        }
        List<String> words = detector.splitTextIntoWords$lingua(cleaned);
        Language byRules = detector.detectLanguageWithRules$lingua(words);
        if (byRules != Language.UNKNOWN) {
            return certain(byRules);
        }
        Set<Language> candidates = detector.filterLanguagesByRules$lingua(words);
        if (candidates.size() == 1) {
            return certain(candidates.iterator().next());
        }
        if (lowAccuracy && cleaned.length() < 3) {
            return new TreeMap<>();
        }
        if (!lowAccuracy && cleaned.length() < TRIGRAMS_ONLY_FROM) {
            return detector.computeLanguageConfidenceValues(text); // 1..5-grams: lingua's own path
        }
        Map<Language, Float> sums = trigramSums(TestDataLanguageModel.Companion.fromText(cleaned, 3).getNgrams(),
                candidates);
        Map<Language, Float> summed = detector.sumUpProbabilities$lingua(List.of(sums), Map.of(), candidates);
        Float highest = null;
        for (Float v : summed.values()) {
            if (highest == null || Float.compare(v, highest) > 0) {
                highest = v;
            }
        }
        if (highest == null) {
            return new TreeMap<>();
        }
        Map<Language, Double> confidence = new LinkedHashMap<>();
        for (Map.Entry<Language, Float> e : summed.entrySet()) {
            confidence.put(e.getKey(), (double) (highest / e.getValue()));
        }
        Comparator<Language> order = Comparator.<Language, Double>comparing(confidence::get).reversed()
                .thenComparing(Comparator.naturalOrder());
        SortedMap<Language, Double> out = new TreeMap<>(order);
        out.putAll(confidence);
        return out;
    }

    private static SortedMap<Language, Double> certain(Language language) {
        SortedMap<Language, Double> out = new TreeMap<>();
        out.put(language, 1.0);
        return out;
    }

    /**
     * lingua's {@code computeLanguageProbabilities}: per candidate language, the float sum over the
     * text's trigrams (in the set's order) of ln p of the trigram, or of its first bigram, or of its
     * first character, whichever the language knows first; languages whose sum is not negative are left out.
     */
    private Map<Language, Float> trigramSums(Set<Ngram> trigrams, Set<Language> candidates) {
        int count = Language.values().length;
        boolean[] candidate = new boolean[count];
        for (Language l : candidates) {
            candidate[l.ordinal()] = true;
        }
        float[] sum = new float[count];
        int[] scoredAt = new int[count]; // the trigram (1-based) for which a language last got a term
        int t = 0;
        for (Ngram ngram : trigrams) {
            t++;
            String value = ngram.getValue();
            int unscored = candidates.size(); // lower orders only serve languages that lack the longer n-gram
            for (int n = value.length(); n >= 1 && unscored > 0; n--) {
                Known known = byOrder.get(n - 1).get(n == value.length() ? value : value.substring(0, n));
                if (known == null) {
                    continue;
                }
                int[] ls = known.languages();
                float[] lp = known.logProbabilities();
                for (int i = 0; i < ls.length; i++) {
                    int l = ls[i];
                    if (candidate[l] && scoredAt[l] != t) {
                        sum[l] += lp[i];
                        scoredAt[l] = t;
                        unscored--;
                    }
                }
            }
        }
        Map<Language, Float> out = new LinkedHashMap<>();
        for (Language l : candidates) {
            if (sum[l.ordinal()] < 0) {
                out.put(l, sum[l.ordinal()]);
            }
        }
        return out;
    }
}
