package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.doc.Document;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parity with datatrove 0.10 on the golden corpora: the five blocks (groups summary + histogram) over
 * each corpus as one rank, merged, compared file by file and field by field with datatrove's metric.json.
 *
 * <p>Every stat must agree to 1e-6 relative in every field and under every histogram key: character-based
 * ones (doc, line, paragraph) and, since the spaCy-compatible tokenizer, word- and sentence-based ones too.
 * All 540 files must also be byte-identical, as the README says they are.
 */
class GoldenStatsParityTest {
    static final double CHAR_TOLERANCE = 1e-6;
    static final List<String> CORPORA = List.of("web_dolma_cc", "web_oscar_c4_mixed", "dclm_human_labels",
            "article_fullpage_text", "clough_stevenson_plagiarism");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static Path inputOf(String corpus) {
        Path data = StatsRun.shared().resolve("data");
        for (String sub : List.of("corpus", "quality", "dedup")) {
            Path p = data.resolve(sub).resolve(corpus + ".jsonl.zst");
            if (Files.exists(p)) {
                return p;
            }
        }
        throw new IllegalStateException("no input for " + corpus);
    }

    static boolean tokenBased(String stat) {
        String base = stat.replaceAll("__(chars|tokens)$", "");
        return base.contains("word") || base.contains("sentence") || base.equals("type_token_ratio");
    }

    @Test
    void matchesDatatroveOnGoldenCorpora() throws IOException {
        Path golden = StatsRun.shared().resolve("data/golden/stats");
        Assumptions.assumeTrue(Files.isDirectory(golden), "shared golden data not present");
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        table.append(String.format("%-28s %-9s %6s %9s %10s %14s%n", "corpus", "kind", "files", "identical",
                "within_tol", "worst_mean_rel"));
        TreeMap<String, double[]> perStat = new TreeMap<>();
        int totalFiles = 0;
        int totalIdentical = 0;
        for (String corpus : CORPORA) {
            List<Document> docs = StatsRun.readCorpus(inputOf(corpus));
            Path out = tmp.resolve(corpus);
            StatsRun.runRank(StatsRun.BLOCKS, Map.of("output", out.toString(), "groups", List.of("summary", "histogram")),
                    docs, 0, 1, tmp);
            StatsRun.merge(out, out, 1, tmp);
            int[] files = new int[2];
            int[] identical = new int[2];
            int[] within = new int[2];
            double[] worst = new double[2];
            try (Stream<Path> walk = Files.walk(golden.resolve(corpus))) {
                for (Path g : walk.filter(p -> p.getFileName().toString().equals("metric.json")).sorted().toList()) {
                    Path rel = golden.resolve(corpus).relativize(g);
                    String stat = rel.getParent().getFileName().toString();
                    int kind = tokenBased(stat) ? 1 : 0;
                    files[kind]++;
                    Path ours = out.resolve(rel);
                    if (!Files.exists(ours)) {
                        failures.add(corpus + "/" + rel + ": missing");
                        continue;
                    }
                    if (Files.readString(g).equals(Files.readString(ours))) {
                        identical[kind]++;
                    }
                    JsonNode a = JSON.readTree(g.toFile());
                    JsonNode b = JSON.readTree(ours.toFile());
                    if (rel.startsWith("summary")) {
                        double rel0 = relDiff(mean(a.get("summary")), mean(b.get("summary")));
                        worst[kind] = Math.max(worst[kind], rel0);
                        double[] agg = perStat.computeIfAbsent(stat, k -> new double[1]);
                        agg[0] = Math.max(agg[0], rel0);
                    }
                    String diff = compare(a, b, CHAR_TOLERANCE);
                    if (diff == null) {
                        within[kind]++;
                    } else {
                        failures.add(corpus + "/" + rel + ": " + diff);
                    }
                }
            }
            totalFiles += files[0] + files[1];
            totalIdentical += identical[0] + identical[1];
            for (int kind = 0; kind < 2; kind++) {
                table.append(String.format("%-28s %-9s %6d %9d %10d %14.3g%n", corpus, kind == 0 ? "chars" : "tokens",
                        files[kind], identical[kind], within[kind], worst[kind]));
            }
        }
        table.append("\nworst relative difference of the summary mean per stat over all corpora:\n");
        perStat.forEach((k, v) -> table.append(String.format("  %-40s %.3g%n", k, v[0])));
        System.out.println(table);
        assertTrue(failures.isEmpty(), failures.size() + " differences, first: "
                + failures.subList(0, Math.min(20, failures.size())));
        // the README's claim, stricter than the tolerance: our files are datatrove's, byte for byte
        assertEquals(540, totalFiles, "the golden files compared");
        assertEquals(totalFiles, totalIdentical, "files byte-identical to datatrove's (all within " + CHAR_TOLERANCE
                + " relative):\n" + table);
    }

    static double mean(JsonNode m) {
        if (m.isNumber()) {
            return m.asDouble();
        }
        return m.has("mean") ? m.get("mean").asDouble() : 1.0;
    }

    static double relDiff(double a, double b) {
        if (a == b) {
            return 0;
        }
        return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
    }

    /** null when both files have the same keys and every numeric field agrees to tol relative. */
    static String compare(JsonNode a, JsonNode b, double tol) {
        if (a.isNumber() || b.isNumber()) {
            if (a.isNumber() && b.isNumber() && relDiff(a.asDouble(), b.asDouble()) <= tol) {
                return null;
            }
            return "value " + a + " vs " + b;
        }
        if (a.size() != b.size()) {
            return "key count " + a.size() + " vs " + b.size();
        }
        for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!b.has(k)) {
                return "key '" + k + "' missing";
            }
            String d = compare(a.get(k), b.get(k), tol);
            if (d != null) {
                return k + ": " + d;
            }
        }
        if (a.isTextual() && !a.equals(b)) {
            return a + " vs " + b;
        }
        return null;
    }
}
