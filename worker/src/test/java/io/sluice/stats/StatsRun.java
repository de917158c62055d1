package io.sluice.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import io.sluice.pipeline.ProgressCounter;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import io.sluice.pipeline.StepStats;
import io.sluice.pipeline.TaskLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: runs stat steps over in-memory documents as given ranks, and merges. */
final class StatsRun {
    static final List<String> BLOCKS = List.of("doc_stats", "word_stats", "line_stats", "paragraph_stats",
            "sentence_stats");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatsRun() {
    }

    static Path shared() {
        return Path.of(System.getProperty("sluice.shared", "../shared"));
    }

    @SuppressWarnings("unchecked")
    static List<Document> readCorpus(Path file) throws IOException {
        List<Document> docs = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new ZstdInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode n = JSON.readTree(line);
                Map<String, Object> meta = n.has("metadata")
                        ? JSON.convertValue(n.get("metadata"), LinkedHashMap.class) : new LinkedHashMap<>();
                docs.add(new Document(n.get("id").asText(), n.get("text").asText(), meta));
            }
        }
        return docs;
    }

    static StepContext context(int rank, int worldSize, Path dir) {
        return context(rank, worldSize, dir, System.err);
    }

    /** A context whose task log goes to {@code log}. */
    static StepContext context(int rank, int worldSize, Path dir, java.io.PrintStream log) {
        return new StepContext(rank, worldSize, new StepStats("test"), TaskLog.toStream(log), dir, new ProgressCounter());
    }

    static Step create(String name, Map<String, Object> args) {
        return StepRegistry.create(name, new StepArgs(name, new LinkedHashMap<>(args)));
    }

    /** Runs the given blocks over docs as one rank (each doc is copied so metadata updates stay local). */
    static void runRank(List<String> blocks, Map<String, Object> args, List<Document> docs, int rank, int worldSize,
                        Path dir) throws IOException {
        List<Step> steps = new ArrayList<>();
        for (String b : blocks) {
            Step s = create(b, args);
            s.open(context(rank, worldSize, dir));
            steps.add(s);
        }
        for (Document d : docs) {
            Document copy = new Document(d.id(), d.text(), new LinkedHashMap<>(d.metadata()));
            for (Step s : steps) {
                s.process(copy, x -> { });
            }
        }
        for (Step s : steps) {
            s.finish(x -> { });
            s.close();
        }
    }

    static void merge(Path input, Path output, int worldSize, Path dir) throws IOException {
        for (int rank = 0; rank < worldSize; rank++) {
            Step m = create("merge_stats", Map.of("input", input.toString(), "output", output.toString()));
            m.open(context(rank, worldSize, dir));
            m.finish(x -> { });
            m.close();
        }
    }
}
