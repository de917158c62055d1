package io.sluice.filters;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.pemistahl.lingua.api.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Accuracy and speed of {@code language_filter}'s identifier (lingua) on shared/data/lid: the UDHR in
 * 532 languages (label {@code metadata.iso6393}) and a deterministic sample of the Leipzig sentences
 * (the first {@value #PER_KIND} lines of each language and kind; label {@code metadata.lang}).
 * Accuracy counts only documents whose language the identifier knows; the others are reported apart.
 * Texts are cut to the filter's default max_chars, as the filter does. Speed is the time of the identification alone, after the models are loaded; run it pinned to one
 * core ({@code taskset -c 0}) for a one-core number.
 *
 * <p>Run from worker/ (argument {@code low} or {@code high}, the filter's {@code accuracy}):
 * <pre>
 * ../mvnw -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * taskset -c 0 java -cp target/test-classes:target/classes:$(cat target/cp.txt) -Dsluice.shared=../../shared \
 *     io.sluice.filters.LanguageIdEvaluation low
 * </pre>
 */
public final class LanguageIdEvaluation {
    static final int PER_KIND = 70;

    public static void main(String[] args) throws IOException {
        boolean low = args.length == 0 || !args[0].equals("high");
        System.out.printf("lingua %s accuracy mode, all %d languages%n", low ? "low" : "high", Language.all().size());
        Map<String, Language> byIso3 = new HashMap<>();
        Map<String, Language> byIso1 = new HashMap<>();
        for (Language l : Language.all()) {
            byIso3.put(l.getIsoCode639_3().name().toLowerCase(Locale.ROOT), l);
            byIso1.put(l.getIsoCode639_1().name().toLowerCase(Locale.ROOT), l);
        }
        long t0 = System.nanoTime();
        LanguageFilter.scores("warm up: load the models of every language", low);
        Runtime rt = Runtime.getRuntime();
        rt.gc();
        System.out.printf("model load %.1f s, heap used after load %d MB%n", (System.nanoTime() - t0) / 1e9,
                (rt.totalMemory() - rt.freeMemory()) >> 20);

        List<JsonNode> udhr = SharedData.lines(SharedData.file("lid/udhr.jsonl.zst"));
        // the label: ISO 639-3, else the BCP 47 primary subtag (e.g. cmn -> zh, arb -> ar), as 639-1 or 639-3
        evaluate("udhr", udhr, n -> {
            JsonNode m = n.get("metadata");
            String primary = m.get("bcp47").asText().split("-")[0].toLowerCase(Locale.ROOT);
            Language l = byIso3.get(m.get("iso6393").asText());
            l = l != null ? l : byIso1.get(primary);
            return l != null ? l : byIso3.get(primary);
        }, n -> "all", low);

        List<JsonNode> sample = new ArrayList<>();
        Map<String, Integer> taken = new HashMap<>();
        SharedData.forEachLine(SharedData.file("lid/leipzig_sentences.jsonl.zst"), n -> {
            String key = n.get("metadata").get("lang").asText() + "/" + n.get("metadata").get("kind").asText();
            if (taken.merge(key, 1, Integer::sum) <= PER_KIND) {
                sample.add(n);
            }
        });
        evaluate("leipzig sample", sample, n -> byIso1.get(n.get("metadata").get("lang").asText()),
                n -> n.get("metadata").get("kind").asText(), low);
    }

    private static void evaluate(String name, List<JsonNode> docs, java.util.function.Function<JsonNode, Language> label,
                                 java.util.function.Function<JsonNode, String> group, boolean low) {
        Map<String, int[]> perGroup = new TreeMap<>();
        Set<String> unsupported = new TreeSet<>();
        int unsupportedDocs = 0;
        long bytes = 0;
        long nanos = 0;
        Map<String, Integer> confusions = new TreeMap<>();
        for (JsonNode n : docs) {
            String text = n.get("text").asText();
            Language gold = label.apply(n);
            long t = System.nanoTime();
            Map<Language, Double> scores = LanguageFilter.scores(LanguageFilter.head(text, LanguageFilter.DEFAULT_MAX_CHARS), low);
            nanos += System.nanoTime() - t;
            bytes += text.getBytes(StandardCharsets.UTF_8).length;
            if (gold == null) {
                unsupportedDocs++;
                JsonNode m = n.get("metadata");
                unsupported.add(m.has("iso6393") ? m.get("iso6393").asText() : m.get("lang").asText());
                continue;
            }
            Language top = scores.isEmpty() ? null : scores.keySet().iterator().next();
            boolean right = gold == top;
            boolean confident = top != null && scores.get(top) > 0.65;
            for (String g : new TreeSet<>(List.of(group.apply(n), "all"))) {
                int[] c = perGroup.computeIfAbsent(g, k -> new int[4]);
                c[0]++;
                c[1] += right ? 1 : 0;
                c[2] += confident ? 1 : 0;
                c[3] += confident && right ? 1 : 0;
            }
            if (!right) {
                confusions.merge(LanguageFilter.code(gold) + "->" + (top == null ? "none" : LanguageFilter.code(top)), 1, Integer::sum);
            }
        }
        System.out.printf("%n== %s: %d documents, %.2f MB%n", name, docs.size(), bytes / 1e6);
        perGroup.forEach((g, c) -> System.out.printf(
                "  accuracy %-14s %5d/%5d = %6.2f%%   score > 0.65: %6.2f%% of documents, %6.2f%% of those right%n",
                g, c[1], c[0], 100.0 * c[1] / c[0], 100.0 * c[2] / c[0], c[2] == 0 ? 0 : 100.0 * c[3] / c[2]));
        System.out.printf("  not scored (language unknown to lingua): %d documents, %d languages%n", unsupportedDocs, unsupported.size());
        System.out.printf("  speed: %.0f docs/s, %.2f MB/s%n", docs.size() / (nanos / 1e9), bytes / 1e6 / (nanos / 1e9));
        List<Map.Entry<String, Integer>> top = new ArrayList<>(confusions.entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        System.out.println("  most frequent confusions (gold->predicted): " + top.subList(0, Math.min(12, top.size())));
    }
}
