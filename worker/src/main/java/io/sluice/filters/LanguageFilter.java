package io.sluice.filters;

import com.github.pemistahl.lingua.api.IsoCode639_1;
import com.github.pemistahl.lingua.api.IsoCode639_3;
import com.github.pemistahl.lingua.api.Language;
import com.github.pemistahl.lingua.api.LanguageDetector;
import com.github.pemistahl.lingua.api.LanguageDetectorBuilder;
import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Identifies the language of each document, records it in {@code metadata.language} and
 * {@code metadata.language_score}, and keeps documents in one of {@code languages} whose score is above
 * {@code language_threshold} (datatrove's {@code LanguageFilter}).
 *
 * <p>Keys: {@code languages} (ISO 639-1 or 639-3 codes, default [en]; {@code null} keeps any language
 * whose best score is above the threshold), {@code language_threshold} 0.65, {@code label_only} false
 * (true: only label, never drop), {@code keep_top_pairs_threshold} -1 (other value: also write
 * {@code metadata.top_language_<code>_score} for every language scoring above it), {@code accuracy}
 * {@code low} (lingua's trigram-only mode: 50 MB of models loaded in seconds; as accurate on documents,
 * less on single words) or {@code high} (1..5-grams: about 1 GB of heap, 45 s to load), {@code max_chars} 2000
 * (only the text's first characters are identified, 0: all of it).
 *
 * <p>Reason: {@code language} (datatrove drops without naming a reason).
 *
 * <p>Deliberate differences: datatrove runs fastText's lid.176 model, downloaded at run time; we run
 * lingua (75 languages, models inside its jar, nothing downloaded). Its scores are probabilities over
 * those 75 languages, so a score is not the same number fastText would give, and language codes are
 * ISO 639-1 where one exists (as fastText's labels are). lingua's confidences are computed by
 * {@link LinguaTrigrams} (the same numbers, one table lookup per trigram instead of one per language);
 * still, lingua's rules keep it far slower than the other filters (3.8-7 MB/s per core on the benchmark corpus,
 * depending on the machine), so by default only the first 2000 characters are
 * identified, where fastText reads the whole text. Texts in which lingua finds no language
 * (digits, symbols, empty) get {@code language: "unknown"} and score 0.
 */
public final class LanguageFilter extends Filter {
    /** Enough text for a stable answer; identifying costs time in proportion to the text's length. */
    static final int DEFAULT_MAX_CHARS = 2000;

    /** Detectors are large (models of 75 languages), thread-safe, and shared by every rank of the JVM. */
    private static final Map<Boolean, LanguageDetector> DETECTORS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<Boolean, LinguaTrigrams> TRIGRAMS = new java.util.concurrent.ConcurrentHashMap<>();

    private final Set<Language> languages;
    private final double threshold;
    private final boolean labelOnly;
    private final double keepTopPairsThreshold;
    private final boolean lowAccuracy;
    private final int maxChars;

    public LanguageFilter(StepArgs args) {
        super(args);
        boolean allLanguages = args.raw().containsKey("languages") && args.raw().get("languages") == null;
        List<String> codes = args.strings("languages", List.of("en"));
        languages = allLanguages ? null : parseLanguages(args, codes);
        threshold = args.number("language_threshold", 0.65);
        labelOnly = args.bool("label_only", false);
        keepTopPairsThreshold = args.number("keep_top_pairs_threshold", -1);
        lowAccuracy = args.choice("accuracy", "low", "low", "high").equals("low");
        long max = args.integer("max_chars", DEFAULT_MAX_CHARS);
        if (max < 0 || max > Integer.MAX_VALUE) {
            throw args.error("max_chars", "must be 0 (whole text) or a positive number of characters, got " + max);
        }
        maxChars = (int) max;
    }

    private static Set<Language> parseLanguages(StepArgs args, List<String> codes) {
        Set<Language> out = new LinkedHashSet<>();
        for (String code : codes) {
            Language l = byCode(code);
            if (l == null) {
                List<String> known = new ArrayList<>();
                for (Language k : Language.all()) {
                    known.add(code(k));
                }
                throw args.error("languages", "has '" + code + "', which is not a language the identifier knows; known: "
                        + String.join(", ", known));
            }
            out.add(l);
        }
        return out;
    }

    private static Language byCode(String code) {
        String c = code.trim().toUpperCase(Locale.ROOT);
        for (Language l : Language.all()) {
            if (l.getIsoCode639_1().name().equals(c) || l.getIsoCode639_3().name().equals(c)) {
                return l;
            }
        }
        return null;
    }

    /** The code written to metadata: ISO 639-1, lower case. */
    static String code(Language l) {
        IsoCode639_1 iso1 = l.getIsoCode639_1();
        if (iso1 != IsoCode639_1.NONE) {
            return iso1.name().toLowerCase(Locale.ROOT);
        }
        IsoCode639_3 iso3 = l.getIsoCode639_3();
        return iso3.name().toLowerCase(Locale.ROOT);
    }

    static LanguageDetector detector(boolean lowAccuracy) {
        return DETECTORS.computeIfAbsent(lowAccuracy, low -> {
            LanguageDetectorBuilder b = LanguageDetectorBuilder.fromAllLanguages();
            return (low ? b.withLowAccuracyMode() : b).build();
        });
    }

    /** lingua's confidence values computed with one lookup per trigram (see {@link LinguaTrigrams}). */
    static LinguaTrigrams trigrams(boolean lowAccuracy) {
        return TRIGRAMS.computeIfAbsent(lowAccuracy, low -> new LinguaTrigrams(detector(low)));
    }

    /**
     * The part of the text that is identified: the first {@code maxChars} characters, extended to the
     * end of the word they cut (0: the whole text).
     */
    static String head(String text, int maxChars) {
        if (maxChars == 0 || text.length() <= maxChars) {
            return text;
        }
        int end = maxChars;
        int limit = Math.min(text.length(), maxChars + 64);
        while (end < limit && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end);
    }

    /**
     * Probability-like scores of the languages lingua finds in the text, best first, summing to 1;
     * empty when it finds none.
     *
     * <p>lingua's own confidences are relative (the best language always 1.0, another one
     * {@code r = S_best / S_other}, S being summed n-gram log-probabilities), so they cannot be compared
     * with a threshold. A naive-Bayes posterior needs {@code S_best - S_other}, which is
     * {@code |S_best| (1/r - 1)}; with {@code |S_best|} estimated as {@value #NATS_PER_TRIGRAM} nats per
     * letter trigram of the text, a language's score is {@code exp(-N c (1/r - 1))} normalised over all
     * languages. Short texts get low scores, long clear ones a score near 1 (as fastText does). Unlike fastText's,
     * the score of a long text is near 1 even when it is mixed (half English, half French: one of them at 0.99...)
     * or in a language lingua does not know (Swiss German scores as German): the evidence grows with the text's
     * length whatever the margin between the languages. The README says so.
     */
    static Map<Language, Double> scores(String text, boolean lowAccuracy) {
        // newlines out, as datatrove does for fastText, which reads one line
        SortedMap<Language, Double> relative = trigrams(lowAccuracy).confidences(text.replace('\n', ' '));
        double evidence = NATS_PER_TRIGRAM * Math.max(1, letterTrigrams(text));
        Map<Language, Double> weights = new LinkedHashMap<>();
        double sum = 0;
        for (Map.Entry<Language, Double> e : relative.entrySet()) {
            double r = e.getValue();
            double w = r <= 0 ? 0 : Math.exp(-evidence * (1 / r - 1));
            weights.put(e.getKey(), w);
            sum += w;
        }
        Map<Language, Double> out = new LinkedHashMap<>();
        for (Map.Entry<Language, Double> e : weights.entrySet()) {
            out.put(e.getKey(), e.getValue() / sum);
        }
        return out;
    }

    /** Mean negative log-probability of one letter trigram under the best language (a conservative guess). */
    static final double NATS_PER_TRIGRAM = 1.0;

    /** Trigrams inside runs of letters: what lingua's trigram model scores. */
    static int letterTrigrams(String text) {
        int trigrams = 0;
        int run = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (Character.isLetter(c)) {
                run++;
                if (run >= 3) {
                    trigrams++;
                }
            } else {
                run = 0;
            }
            i += Character.charCount(c);
        }
        return trigrams;
    }

    @Override
    public Verdict filter(Document doc) {
        Map<Language, Double> scores = scores(head(doc.text(), maxChars), lowAccuracy);
        String best = "unknown";
        double bestScore = 0;
        for (Map.Entry<Language, Double> top : scores.entrySet()) {
            best = code(top.getKey());
            bestScore = top.getValue();
            break;
        }
        doc.putMetadata("language", best);
        doc.putMetadata("language_score", bestScore);
        if (keepTopPairsThreshold != -1) {
            // the pairs of datatrove's predict: the listed languages' scores (0.0 for one not found), or all of them
            Map<Language, Double> pairs = scores;
            if (languages != null && !languages.isEmpty()) { // [] is falsy in Python: every pair, as with null
                pairs = new LinkedHashMap<>();
                for (Language l : languages) {
                    pairs.put(l, scores.getOrDefault(l, 0.0));
                }
            }
            for (Map.Entry<Language, Double> e : pairs.entrySet()) {
                if (e.getValue() > keepTopPairsThreshold) {
                    doc.putMetadata("top_language_" + code(e.getKey()) + "_score", e.getValue());
                }
            }
        }
        if (labelOnly) {
            return Verdict.KEEP;
        }
        boolean keep;
        if (languages == null) {
            keep = bestScore > threshold;
        } else {
            keep = false;
            for (Language l : languages) {
                Double s = scores.get(l);
                if (s != null && s > threshold) {
                    keep = true;
                    break;
                }
            }
        }
        return keep ? Verdict.KEEP : Verdict.drop("language");
    }
}
