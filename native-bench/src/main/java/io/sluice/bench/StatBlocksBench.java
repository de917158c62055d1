package io.sluice.bench;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The statistics steps as a stats job runs them (each document through {@code process}, with all four
 * groups), one thread over a real corpus, without reading or writing: the steady state of the statistics
 * benchmark's ranks, where the whole job adds the JVM's warm-up. Score = passes over the corpus per second;
 * MB/s of text = score x corpus MB (printed at setup). The documents are decoded once and keep the metadata
 * the steps put on them, so later passes replace those keys rather than add them. Corpus:
 * {@code -Dsluice.bench.corpus=<jsonl.zst or a folder of them>}, default the six corpora of
 * {@code ../shared/data/corpus} (92 MB of web text, e-mail and documentation: a single small corpus lets the
 * word tables hold every word, and flatters word_stats).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class StatBlocksBench {
    /** One block, or all three in the benchmark job's order. */
    @Param({"doc_stats", "word_stats", "line_stats", "doc_stats+word_stats+line_stats"})
    public String blocks;

    private final List<Document> docs = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path corpus = SharedData.path("sluice.bench.corpus", "corpus");
        List<Path> files;
        try (var listing = Files.isDirectory(corpus) ? Files.list(corpus) : java.util.stream.Stream.of(corpus)) {
            files = listing.filter(f -> f.getFileName().toString().endsWith(".jsonl.zst")).sorted().toList();
        }
        long bytes = 0;
        for (Path file : files) {
            for (Document doc : JsonlReader.readAll(file)) {
                docs.add(doc);
                bytes += doc.text().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (docs.isEmpty()) {
            // a wrong path (or a run from another folder) would time an empty loop and report a huge score
            throw new IllegalStateException("no documents in " + corpus.toAbsolutePath() + ": give -Dsluice.bench.corpus="
                    + "a .jsonl.zst file or a folder of them, or run from the project root");
        }
        Path out = Files.createTempDirectory("stat-blocks-bench");
        for (String block : blocks.split("\\+")) {
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("output", out.toString());
            Step step = StepRegistry.create(block, new StepArgs(block, args));
            step.open(StepContext.standalone(block, out));
            steps.add(step);
        }
        System.out.printf("%n%s: %d documents, %.3f MB of text (MB/s = score x this)%n", corpus, docs.size(), bytes / 1e6);
    }

    @Benchmark
    public int process() throws IOException {
        int[] passed = new int[1];
        for (Document doc : docs) {
            for (Step step : steps) {
                step.process(doc, d -> passed[0]++);
            }
        }
        return passed[0];
    }
}
