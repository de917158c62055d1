package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.pipeline.MetricStats;
import io.sluice.pipeline.StepStats;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** datatrove's doc_len and doc_len_tokens in stats.json: the lengths of the documents each step passed on. */
class DocumentLengthsTest {
    @TempDir
    Path root;

    /** Lines, with the text's length as Python's len() gives it once json.loads has read the line. */
    private static final String[] LINES = {
        "{\"text\": \"plain words here\", \"metadata\": {\"token_count\": 3}}", // 16
        "{\"text\": \"naïve café – 日本語 😀\"}", // 18: a code point is one however many bytes it takes
        "{\"text\": \"caf\\u00e9 \\ud83d\\ude00 two\\nlines \\\"quoted\\\"\", \"metadata\": {\"token_count\": 0}}", // 25
        "{\"text\": \"lone \\ud800 half\"}", // 11: a lone surrogate escape is one code point to Python
        "{\"text\": \"\", \"metadata\": {\"token_count\": 5}}", // skipped by the reader (as datatrove's), not counted
        "{\"text\": \"one two three four five six\", \"metadata\": {\"token_count\": 6}}", // 27
        "{\"text\": \"not a number\", \"metadata\": {\"token_count\": NaN}}", // 12; a count JSON cannot hold, left out
    };
    private static final long[] LENGTHS = {16, 18, 25, 11, 27, 12};

    @Test
    void everyStepCountsTheLengthsOfTheDocumentsItPassesOn() throws IOException {
        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/a.jsonl"), String.join("\n", LINES[0], LINES[1], LINES[2]) + "\n");
        Files.writeString(root.resolve("in/b.jsonl"), String.join("\n", LINES[3], LINES[4], LINES[5], LINES[6]) + "\n");
        Path job = twoTaskJob("clean", """
                      - read_jsonl: {path: ROOT/in}
                      - length_filter: {min_chars: 12}
                      - write_jsonl: {path: ROOT/out, compression: none}
                """);
        run(job);

        Path statsJson = root.resolve("logs/clean/stats.json");
        PipelineStats merged = PipelineStats.read(statsJson);
        assertLengths(merged.step("read_jsonl"), LENGTHS);
        long[] kept = {16, 18, 25, 27, 12}; // min_chars: 12 drops the 11
        assertLengths(merged.step("length_filter"), kept);
        assertLengths(merged.step("write_jsonl"), kept);
        // token_count 0 is not counted, as datatrove's truthiness test leaves it out
        MetricStats tokens = merged.step("read_jsonl").lengths().get(StepStats.DOC_LEN_TOKENS);
        assertEquals(List.of(2L, 9.0, 3.0, 6.0), List.of(tokens.n(), tokens.total(), tokens.min(), tokens.max()));

        // in datatrove's MetricStats form, as its Stats.from_dict reads it
        JsonNode reader = new ObjectMapper().readTree(statsJson.toFile()).get(0).get("stats");
        assertEquals(109, reader.get("doc_len").get("total").asLong());
        assertEquals(6, reader.get("doc_len").get("n").asLong());
        assertEquals(109 / 6.0, reader.get("doc_len").get("mean").asDouble(), 1e-12);
        assertEquals(11, reader.get("doc_len").get("min").asLong());
        assertEquals(27, reader.get("doc_len").get("max").asLong());
        assertTrue(reader.get("doc_len").get("unit") == null, "datatrove's unit 'doc' is left out: " + reader);
        assertEquals(6, reader.get("documents").asLong());
        // the numbers as Python writes them, as in the stats steps' files
        assertTrue(Files.readString(statsJson).contains("\"doc_len\" : {\"total\": 109, \"n\": 6, \"mean\": 18.166666666666668,"),
                Files.readString(statsJson));
    }

    /**
     * Token counts past about 1e154 overflow doc_len_tokens' variance to Infinity or NaN, which stats.json then holds, as
     * datatrove's would. The ranks' files were refused when merged into the stage's stats.json, on every run of the job.
     */
    @Test
    void hugeTokenCountsMergeIntoTheStagesStats() throws IOException {
        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/a.jsonl"), """
                {"text": "one", "metadata": {"token_count": 1e300}}
                {"text": "two", "metadata": {"token_count": 3e300}}
                """);
        Files.writeString(root.resolve("in/b.jsonl"), """
                {"text": "three", "metadata": {"token_count": 2e300}}
                """);
        Path job = twoTaskJob("read", """
                      - read_jsonl: {path: ROOT/in}
                """);
        for (int run = 0; run < 2; run++) { // the second run finds every rank complete and merges again
            run(job);
            MetricStats tokens = PipelineStats.read(root.resolve("logs/read/stats.json")).step("read_jsonl").lengths()
                    .get(StepStats.DOC_LEN_TOKENS);
            assertEquals(3, tokens.n());
            assertEquals(6e300, tokens.total(), 1e286);
            assertEquals(3e300, tokens.max());
            assertTrue(!Double.isFinite(tokens.variance()), tokens.toString());
        }
    }

    /** A token_count of true is Python's int 1, truthy: datatrove counts it (it was left out); false is 0, left out. */
    @Test
    void aTokenCountOfTrueCountsOne() {
        StepStats step = new StepStats("read_jsonl");
        step.addDocumentLengths(3, true);
        step.addDocumentLengths(3, false);
        step.addDocumentLengths(3, 2.5);
        MetricStats tokens = step.lengths().get(StepStats.DOC_LEN_TOKENS);
        assertEquals(List.of(2L, 3.5, 1.0, 2.5), List.of(tokens.n(), tokens.total(), tokens.min(), tokens.max()));
    }

    /** Ranks completed by a version without doc_len would make the merged lengths count only some documents. */
    @Test
    void aRankWithoutLengthsLeavesThemOutOfTheMerge() {
        StepStats withLengths = new StepStats("read_jsonl");
        withLengths.add("forwarded", 1);
        withLengths.addDocumentLengths(10, null);
        StepStats old = new StepStats("read_jsonl");
        old.add("forwarded", 3);
        for (List<StepStats> order : List.of(List.of(withLengths, old), List.of(old, withLengths))) {
            StepStats merged = new StepStats("read_jsonl");
            order.forEach(merged::mergeFrom);
            assertEquals(4, merged.get("forwarded"));
            assertTrue(merged.lengths().isEmpty(), merged.lengths().toString());
        }
        StepStats none = new StepStats("length_filter"); // passed nothing on: nothing to measure
        StepStats merged = new StepStats("length_filter");
        merged.mergeFrom(none);
        merged.mergeFrom(withLengths);
        assertEquals(1, merged.lengths().get(StepStats.DOC_LEN).n());
    }

    /** A job of one stage of two tasks, its steps given as the job file's lines ({@code ROOT} is the test's folder). */
    private Path twoTaskJob(String stage, String steps) throws IOException {
        Path job = root.resolve("job.yaml");
        Files.writeString(job, ("""
                logging_dir: ROOT/logs
                tasks: 2
                stages:
                  - name: STAGE
                    steps:
                """ + steps).replace("ROOT", root.toString()).replace("STAGE", stage));
        return job;
    }

    private static void run(Path job) throws IOException {
        assertTrue(new LocalExecutor(io.sluice.job.JobFile.load(job), new PrintStream(OutputStream.nullOutputStream())).run(null));
    }

    private static void assertLengths(StepStats step, long[] expected) {
        MetricStats onePass = new MetricStats();
        List<Long> values = new ArrayList<>();
        for (long v : expected) {
            onePass.addPerDocument(v, true);
            values.add(v);
        }
        MetricStats got = step.lengths().get(StepStats.DOC_LEN);
        assertEquals(onePass.n(), got.n(), step.name() + " " + values);
        assertEquals(onePass.total(), got.total(), step.name() + " " + values);
        assertEquals(onePass.min(), got.min(), step.name());
        assertEquals(onePass.max(), got.max(), step.name());
        assertEquals(onePass.mean(), got.mean(), 1e-12, step.name());
        assertEquals(onePass.variance(), got.variance(), 1e-9 * onePass.variance(), step.name());
    }

    /** A rank's one document of length 1 is written as datatrove writes it, a bare 1: read back, it is still a length. */
    @Test
    void aBareLengthReadsBackAsALength() throws IOException {
        StepStats step = new StepStats("read_jsonl");
        step.add("forwarded", 1);
        step.addDocumentLengths(1, null);
        Path rank = root.resolve("00000.json");
        new PipelineStats(new ArrayList<>(List.of(step))).write(rank, false);
        assertTrue(Files.readString(rank).contains("\"doc_len\" : 1"), Files.readString(rank));
        // a step's seconds as datatrove's json writes them (Jackson wrote 8.0E-4)
        step.addNanos(800_000);
        new PipelineStats(new ArrayList<>(List.of(step))).write(rank, false);
        assertTrue(Files.readString(rank).contains("\"total\" : 0.0008"), Files.readString(rank));
        PipelineStats merged = new PipelineStats(new ArrayList<>());
        merged.mergeFrom(PipelineStats.read(rank));
        merged.mergeFrom(PipelineStats.read(rank));
        merged.write(root.resolve("stats.json"), false);
        assertTrue(Files.readString(root.resolve("stats.json")).contains("\"doc_len\" : {\"total\": 2, \"n\": 2}"),
                "no unit 'task': " + Files.readString(root.resolve("stats.json")));
    }
}
