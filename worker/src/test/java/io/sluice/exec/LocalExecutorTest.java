package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.io.Completions;
import io.sluice.io.TestFiles;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalExecutorTest {
    @TempDir
    Path root;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private boolean run(Job job) throws IOException {
        return new LocalExecutor(job, new PrintStream(console, true)).run(null);
    }

    /** The job fixture over in/, three files of 8 documents: what most tests here run on. */
    private JobFixture threeFilesOf8() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 8);
        return fx;
    }

    @Test
    void runsAllRanksWritesOutputsStatsLogsAndCompletions() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 5, 40);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));

        List<String> kept = TestFiles.allLines(root.resolve("out"));
        List<String> removed = TestFiles.allLines(root.resolve("removed"));
        assertEquals(150, kept.size());
        assertEquals(50, removed.size());
        assertTrue(removed.get(0).contains("\"filter_reason\":\"too_few_words\""), removed.get(0));
        assertEquals(List.of("00000.jsonl.zst", "00001.jsonl.zst", "00002.jsonl.zst"),
                TestFiles.files(root.resolve("out")).stream().map(p -> p.getFileName().toString()).toList());

        Path stage = root.resolve("logs/clean");
        assertEquals(3, Completions.completedRanks(stage).cardinality());
        PipelineStats merged = PipelineStats.read(stage.resolve("stats.json"));
        assertEquals(200, merged.step("read_jsonl").get("documents"));
        assertEquals(50, merged.step("length_filter").get("dropped_too_few_words"));
        assertEquals(150, merged.step("write_jsonl").get("documents_written"));
        assertTrue(Files.readString(stage.resolve("logs/task_00002.log")).contains("rank 2 completed"));
        assertTrue(Files.exists(root.resolve("logs/job.json")));
        assertTrue(Files.exists(stage.resolve("shard_plan.json")));
    }

    @Test
    void rerunSkipsCompletedRanksAndRedoesOnlyMissingOnes() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 5, 40);
        Job job = fx.job(JobFixture.CLEAN_JOB);
        assertTrue(run(job));
        Map<String, String> first = TestFiles.hashes(root.resolve("out"));

        Files.delete(Completions.marker(root.resolve("logs/clean"), 1));
        Files.delete(root.resolve("out/00001.jsonl.zst"));
        console.reset();
        assertTrue(run(job));
        assertTrue(console.toString().contains("2 rank(s) already complete, skipped"), console.toString());
        assertTrue(console.toString().contains("done: 1 rank(s) run"), console.toString());
        assertEquals(first, TestFiles.hashes(root.resolve("out")));
    }

    @Test
    void mergedStatsCoverRanksCompletedByEarlierRuns() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 40);
        String yaml = JobFixture.CLEAN_JOB.replace("workers: 2", "workers: 2\nlocal_tasks: 1\nlocal_rank_offset: OFFSET");
        for (int offset = 0; offset < 3; offset++) {
            assertTrue(run(fx.job(yaml.replace("OFFSET", String.valueOf(offset)))));
            PipelineStats merged = PipelineStats.read(root.resolve("logs/clean/stats.json"));
            assertEquals(40L * (offset + 1), merged.step("read_jsonl").get("documents"), "after block " + offset);
        }
    }

    @Test
    void blocksOfRanksRunTheLaterStageOnceItsInputIsComplete() throws IOException {
        JobFixture fx = threeFilesOf8();
        String yaml = JobFixture.TWO_STAGE_JOB.replace("workers: 2", "workers: 2\nlocal_tasks: 1\nlocal_rank_offset: OFFSET");
        // before, the first two blocks ended with exit code 2, as for a bad job file
        for (int offset = 0; offset < 2; offset++) {
            console.reset();
            assertTrue(run(fx.job(yaml.replace("OFFSET", String.valueOf(offset)))));
            assertTrue(console.toString().contains("[sample] not started: it depends on 'clean', which has " + (2 - offset)
                    + " of 3 ranks not complete; run again once every block has run"), console.toString());
        }
        assertTrue(run(fx.job(yaml.replace("OFFSET", "2"))));
        assertEquals(1, Completions.completedRanks(root.resolve("logs/sample")).cardinality());
        for (int offset = 0; offset < 2; offset++) {
            assertTrue(run(fx.job(yaml.replace("OFFSET", String.valueOf(offset)))));
        }
        assertEquals(TestFiles.allLines(root.resolve("out")).size(), TestFiles.allLines(root.resolve("sampled")).size());
    }

    @Test
    void aBlockOfRanksWhoseOwnInputIsNotMadeIsAnError() throws IOException {
        JobFixture fx = threeFilesOf8();
        String yaml = JobFixture.TWO_STAGE_JOB.replace("workers: 2", "workers: 2\nlocal_tasks: 1\nlocal_rank_offset: 1");
        // 'clean' never ran: the block's own part of the input is missing, which no other block will make
        JobException e = assertThrows(JobException.class,
                () -> new LocalExecutor(fx.job(yaml), new PrintStream(console, true)).run("sample"));
        assertEquals("stage 'sample' depends on 'clean', which has 3 of 3 ranks not complete", e.getMessage());
    }

    @Test
    void runStageTakesAMinhashBlockByItsName() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 2, 8);
        String yaml = JobFixture.CLEAN_JOB + """
                  - name: dedup
                    minhash:
                      input: $ROOT/out
                      output: $ROOT/deduped
                      work_dir: $ROOT/mh
                """;
        assertTrue(run(fx.job(yaml)));
        console.reset();
        assertTrue(new LocalExecutor(fx.job(yaml), new PrintStream(console, true)).run("dedup"));
        String out = console.toString();
        for (String stage : List.of("dedup_signatures", "dedup_buckets", "dedup_cluster", "dedup_filter")) {
            assertTrue(out.contains("[" + stage + "] done: 0 rank(s) run"), out);
        }
        assertFalse(out.contains("[clean]"), out);
        JobException e = assertThrows(JobException.class, () -> new LocalExecutor(fx.job(yaml), System.out).run("dedupe"));
        assertTrue(e.getMessage().contains("has no stage 'dedupe'; its stages: clean, dedup_signatures"), e.getMessage());
    }

    /**
     * The filter stage reads with the signature stage's plan: a file added to the input between the two stages
     * is not read (and said so), where before it shifted the ranks' files and the filter removed other documents.
     */
    @Test
    void theMinhashFilterReadsWhatTheSignaturesWereMadeFrom() throws IOException {
        String yaml = """
                name: test
                logging_dir: $ROOT/logs
                tasks: 2
                workers: 1
                stages:
                  - name: dedup
                    minhash: {input: $ROOT/in, output: $ROOT/deduped, work_dir: $ROOT/mh}
                """;
        JobFixture whole = new JobFixture(Files.createDirectories(root.resolve("whole")));
        whole.corpus("in", 2, 12);
        assertTrue(run(whole.job(yaml)));
        List<String> expected = TestFiles.allLines(root.resolve("whole/deduped")).stream().sorted().toList();
        assertTrue(expected.size() < 24, "the corpus has near-duplicates across its files: " + expected.size());

        JobFixture staged = new JobFixture(Files.createDirectories(root.resolve("staged")));
        Path in = staged.corpus("in", 2, 12);
        Job job = staged.job(yaml);
        for (String stage : List.of("dedup_signatures", "dedup_buckets", "dedup_cluster")) {
            assertTrue(new LocalExecutor(job, new PrintStream(console, true)).run(stage), console.toString());
        }
        // sorted between the two files: planned afresh, rank 1 would read it and remove by part-001's numbers
        TestFiles.write(in.resolve("part-000a.jsonl.gz"), TestFiles.doc("new-1", "a document added after the signatures"));
        // and a plan of its own an earlier, killed run of the filter stage saved over that input
        io.sluice.io.ShardPlan.compute(in, List.of("part-000.jsonl.gz", "part-000a.jsonl.gz", "part-001.jsonl.gz"), 2, 0,
                file -> false).write(root.resolve("staged/logs/dedup_filter/shard_plan.json"));
        console.reset();
        assertTrue(new LocalExecutor(job, new PrintStream(console, true)).run("dedup_filter"), console.toString());
        assertEquals(expected, TestFiles.allLines(root.resolve("staged/deduped")).stream().sorted().toList());
        assertTrue(console.toString().contains("[dedup_filter] note: 1 file(s) the reader lists now were not there when stage"
                + " 'dedup_signatures' made the signatures (part-000a.jsonl.gz), and are not read"), console.toString());

        // a file changed since the signatures were made from it: the filter would remove others than the duplicates
        TestFiles.deleteRecursively(root.resolve("staged/logs/dedup_filter"));
        Path part = in.resolve("part-001.jsonl.gz");
        long before = Files.size(part);
        TestFiles.write(part, TestFiles.doc("changed", "one document where twelve were"));
        JobException e = assertThrows(JobException.class, () -> new LocalExecutor(job, new PrintStream(console, true)).run("dedup_filter"));
        Path logs = root.resolve("staged/logs");
        String refusal = "stage 'dedup_filter': input " + part + " is " + Files.size(part) + " bytes now; it was " + before
                + " bytes when read by stage 'dedup_signatures', which made the MinHash signatures from it, so this stage"
                + " would remove other documents than the duplicates. To deduplicate the input as it is now, delete "
                + logs.resolve("dedup_signatures") + ", " + logs.resolve("dedup_buckets") + ", " + logs.resolve("dedup_cluster")
                + ", " + logs.resolve("dedup_filter");
        assertEquals(refusal, e.getMessage());
        // validate says so too, and so does a Slurm array element, which checks the files of its own ranks
        assertEquals(refusal, assertThrows(JobException.class, () -> io.sluice.job.Preflight.check(job)).getMessage());
        assertEquals(refusal, assertThrows(JobException.class, () -> new StageRunner(job, new PrintStream(console, true), false)
                .runBlock(job.stage("dedup_filter"), 1, 1, 1)).getMessage());
        assertEquals(expected, TestFiles.allLines(root.resolve("staged/deduped")).stream().sorted().toList(),
                "the earlier run's output, not filtered again");

        // a complete MinHash chain runs nothing, so its input changing since is a note, not a refusal (which kept
        // later stages from resuming)
        Path wholePart = root.resolve("whole/in/part-001.jsonl.gz");
        TestFiles.write(wholePart, TestFiles.doc("changed", "one document where twelve were"));
        console.reset();
        assertTrue(run(whole.job(yaml)), console.toString());
        assertTrue(console.toString().contains("[dedup_signatures] note: input " + wholePart + " is"), console.toString());
    }

    /** Cuts the last 20 bytes off a compressed file (a truncated stream); returns its bytes as they were. */
    private static byte[] truncate(Path file) throws IOException {
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 20));
        return whole;
    }

    /** A run of the clean job that failed on rank 1's file, truncated; {@code good} is that file's whole bytes. */
    private record FailedRun(Job job, Path bad, byte[] good) {
    }

    /** Runs the clean job over three files, part-001 truncated: rank 1 fails. */
    private FailedRun runWithPartOneTruncated() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path bad = fx.corpus("in", 3, 40).resolve("part-001.jsonl.gz");
        byte[] good = truncate(bad);
        Job job = fx.job(JobFixture.CLEAN_JOB);
        assertFalse(run(job));
        return new FailedRun(job, bad, good);
    }

    @Test
    void aFailingRankLeavesNoMarkerAndTheOthersComplete() throws IOException {
        FailedRun failed = runWithPartOneTruncated();
        Path stage = root.resolve("logs/clean");
        assertFalse(Completions.isComplete(stage, 1));
        assertTrue(Completions.isComplete(stage, 0) && Completions.isComplete(stage, 2));
        assertTrue(console.toString().contains("rank 1: part-001.jsonl.gz: corrupt or truncated gzip stream"), console.toString());
        assertTrue(Files.readString(stage.resolve("logs/task_00001.log")).contains("corrupt or truncated gzip stream"));
        assertFalse(Files.exists(root.resolve("out/00001.jsonl.zst")), "a failed rank publishes no output");

        mendAndRunAgain(failed.bad(), failed.good(), failed.job());
    }

    /**
     * As {@link #aFailingRankLeavesNoMarkerAndTheOthersComplete}, the failed rank run again as a Slurm array element
     * runs it after the file is mended: the element writes the file's new size into the plan, where it kept the old
     * one and the next submit refused the file as changed under the rank that had just read it.
     */
    @Test
    void anArrayElementRecordsTheSizeOfAFileItsRankReadAfterAMend() throws IOException {
        FailedRun failed = runWithPartOneTruncated();
        Job job = failed.job();
        byte[] good = failed.good();
        Files.write(failed.bad(), good);
        Completions.unmark(root.resolve("logs/clean"), 2); // a rank still to run: a complete stage is let be
        StageRunner.Result r = new StageRunner(job, new PrintStream(console, true), false).runBlock(job.stage("clean"), 1, 1, 1);
        assertTrue(r.ok(), r.failures().toString());
        io.sluice.job.Preflight.check(job); // what submit checks: before, "part-001.jsonl.gz is ... bytes now"
        assertEquals(good.length, io.sluice.io.ShardPlan.read(root.resolve("logs/clean/shard_plan.json")).files().stream()
                .filter(f -> f.path().equals("part-001.jsonl.gz")).findFirst().orElseThrow().size());
    }

    /** Puts {@code bad}'s bytes back and runs {@code job} again: only its rank 1 runs, and the output is whole. */
    private void mendAndRunAgain(Path bad, byte[] good, Job job) throws IOException {
        Files.write(bad, good);
        console.reset();
        assertTrue(run(job));
        assertTrue(console.toString().contains("done: 1 rank(s) run, 2 skipped"), console.toString());
        assertEquals(90, TestFiles.allLines(root.resolve("out")).size());
        // the plan now holds the mended file's size: before, the next run refused it as changed under rank 1
        console.reset();
        assertTrue(run(job), console.toString());
        assertTrue(console.toString().contains("3 rank(s) already complete, skipped"), console.toString());
        assertFalse(console.toString().contains("note: input"), console.toString());
    }

    /**
     * skip_completed: false runs completed ranks again; one that then fails must not keep its marker, whose
     * outputs it removed as it started. Before, the default run after it skipped that rank as complete, and its
     * documents were missing from the output without a word.
     */
    @Test
    void aCompletedRankRunAgainThatFailsIsNotCompleteAfterwards() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = fx.corpus("in", 3, 40);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        Path bad = in.resolve("part-001.jsonl.gz");
        byte[] good = truncate(bad);
        assertFalse(run(fx.job(JobFixture.CLEAN_JOB.replace("workers: 2", "workers: 2\nskip_completed: false"))));
        Path stage = root.resolve("logs/clean");
        assertFalse(Completions.isComplete(stage, 1));
        assertFalse(Files.exists(root.resolve("out/00001.jsonl.zst")));

        mendAndRunAgain(bad, good, fx.job(JobFixture.CLEAN_JOB));
    }

    /** With on_error: skip, a damaged file still counts as read, with its bytes before the damage; blank lines are counted. */
    @Test
    void theReadersCountersCoverSkippedFilesAndBlankLines() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = fx.corpus("in", 2, 40);
        truncate(in.resolve("part-001.jsonl.gz"));
        TestFiles.write(in.resolve("part-002.jsonl.gz"), TestFiles.doc("x", "one two three four five six") + "\n  \n");
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("tasks: 3", "tasks: 1")
                .replace("glob: \"*.jsonl.gz\"}", "glob: \"*.jsonl.gz\", on_error: skip}"))));
        Map<?, ?> read = (Map<?, ?>) ((Map<?, ?>) new com.fasterxml.jackson.databind.ObjectMapper()
                .readValue(root.resolve("logs/clean/stats.json").toFile(), List.class).get(0)).get("stats");
        assertEquals(3, ((Number) read.get("files")).intValue(), read.toString());
        assertEquals(1, ((Number) read.get("skipped_corrupt_files")).intValue(), read.toString());
        assertEquals(2, ((Number) read.get("blank_lines")).intValue(), read.toString());
        long firstFileBytes = TestFiles.lines(in.resolve("part-000.jsonl.gz")).stream().mapToLong(l -> l.length() + 1).sum();
        assertTrue(((Number) read.get("bytes")).longValue() > firstFileBytes, "the damaged file's bytes before the damage: " + read);
        // and the console says so: before, only stats.json and the task log did
        assertTrue(console.toString().contains("[clean] note: read_jsonl skipped 1 damaged file(s) from the damage on; its"
                + " task logs name them"), console.toString());
    }

    /**
     * Lines without the text key: skipped, as datatrove skips them, and the console says so; the task log names the
     * first hundred of a kind. A rank where no line has it fails: text_key is wrong.
     */
    @Test
    void linesWithoutTheTextKeySkippedAreSaidOnTheConsole() throws IOException {
        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/a.jsonl"), "{\"content\": \"one\"}\n{\"content\": \"two\"}\n{\"text\": \"\"}\n"
                + "{\"content\": \"more\"}\n".repeat(150));
        JobFixture fx = new JobFixture(root);
        String job = """
                logging_dir: $ROOT/logs
                tasks: 1
                stages:
                  - name: read
                    steps:
                      - read_jsonl: {path: $ROOT/in}
                      - write_jsonl: {path: $ROOT/out, compression: none}
                """;
        // no line with the text key: text_key is wrong, and the rank fails rather than write nothing
        assertFalse(run(fx.job(job)), console.toString());
        assertTrue(console.toString().contains("rank 0: no line this rank read has the text key 'text' (152 without it; the"
                + " first: a.jsonl:1 (byte 0): no 'text' key, skipped as datatrove does (is text_key right?)): set text_key to"
                + " the key that holds the text, or on_error: skip to go on without them"), console.toString());
        TestFiles.deleteRecursively(root.resolve("logs"));
        console.reset();
        Files.writeString(root.resolve("in/a.jsonl"), "{\"text\": \"kept\"}\n", java.nio.file.StandardOpenOption.APPEND);
        assertTrue(run(fx.job(job)), console.toString());
        assertEquals(1, TestFiles.allLines(root.resolve("out")).size());
        assertTrue(console.toString().contains("[read] note: read_jsonl skipped 152 line(s) without the text key (text_key names"
                + " it), 1 line(s) with empty text (as datatrove skips them); its task logs name them"), console.toString());
        String log = Files.readString(root.resolve("logs/read/logs/task_00000.log"));
        assertTrue(log.contains("skipped line: a.jsonl:2 (byte 19): no 'text' key, skipped as datatrove does (is text_key"
                + " right?)"), log);
        assertEquals(io.sluice.pipeline.ReadJsonl.LOGGED_SKIPS, log.lines().filter(l -> l.contains("no 'text' key")).count(), log);
        assertTrue(log.contains("further lines skipped as missing_text in this rank are counted (skipped_missing_text in its"
                + " stats), not logged"), log);
    }

    /**
     * A plain file cut into three pieces of 2 MiB, with two bad lines in the second: under on_error: skip its rank
     * counts and logs each with the file and its byte offset in the whole file, and every other document is kept
     * once. The reader's 1 MiB buffer is refilled before the bad lines, so the offsets go through its bookkeeping.
     */
    @Test
    void badLinesInTheSecondPieceOfASplitPlainFileAreSkippedAtTheirByteOffsets() throws IOException {
        StringBuilder file = new StringBuilder(); // ASCII only: a char is a byte
        long notJson = -1;
        long notAField = -1;
        int docs = 0;
        while (file.length() < 5_500_000) {
            if (notJson < 0 && file.length() > (2 << 20) + 1_500_000) {
                notJson = file.length();
                file.append("this is not json\n");
                notAField = file.length() + "{\"text\": \"x\", ".length();
                file.append("{\"text\": \"x\", oops}\n");
            }
            file.append(TestFiles.doc("d" + docs, ("word" + docs + " ").repeat(1 + docs % 30)));
            docs++;
        }
        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/big.jsonl"), file);
        JobFixture fx = new JobFixture(root);
        assertTrue(run(fx.job("""
                logging_dir: $ROOT/logs
                tasks: 3
                workers: 1
                stages:
                  - name: read
                    steps:
                      - read_jsonl: {path: $ROOT/in, split_size: 2M, on_error: skip}
                      - write_jsonl: {path: $ROOT/out, compression: none}
                """)), console.toString());

        String log = Files.readString(root.resolve("logs/read/logs/task_00001.log"));
        assertTrue(log.contains("skipped line: big.jsonl (byte " + notJson + "): malformed JSON: line is not a JSON object"), log);
        assertTrue(log.contains("skipped line: big.jsonl (byte " + notAField + "): malformed JSON: expected a field name"), log);
        assertEquals(2, PipelineStats.read(root.resolve("logs/read/stats/00001.json")).step("read_jsonl").get("skipped_malformed"));
        PipelineStats merged = PipelineStats.read(root.resolve("logs/read/stats.json"));
        assertEquals(2, merged.step("read_jsonl").get("skipped_malformed"));
        assertEquals(file.length(), merged.step("read_jsonl").get("bytes"), "every byte read once, by one rank");

        List<String> ids = TestFiles.allLines(root.resolve("out")).stream()
                .map(l -> l.substring("{\"id\":\"".length(), l.indexOf("\",\"text\""))).sorted().toList();
        assertEquals(java.util.stream.IntStream.range(0, docs).mapToObj(i -> "d" + i).sorted().toList(), ids);
    }

    /** The saved plan stays on a re-run; a file added to the input since is named, where it was ignored in silence. */
    @Test
    void aFileAddedAfterThePlanWasSavedIsNoted() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = fx.corpus("in", 2, 8);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertFalse(console.toString().contains("not in the shard plan"), console.toString());
        TestFiles.write(in.resolve("part-009.jsonl.gz"), TestFiles.doc("new", "one two three four five six"));
        console.reset();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(console.toString().contains("[clean] note: 1 file(s) the reader lists now are not in the shard plan an"
                + " earlier run saved (part-009.jsonl.gz), and are not read"), console.toString());
        assertTrue(console.toString().contains("done: 0 rank(s) run, 3 skipped"), console.toString());
    }

    @Test
    void stagesChainAndDependOnEarlierOutputs() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 4, 20);
        String yaml = JobFixture.CLEAN_JOB + """
                  - name: sample
                    tasks: 2
                    depends: clean
                    steps:
                      - read_jsonl: {path: $ROOT/out}
                      - sampler: {rate: 0.5, seed: 3}
                      - write_jsonl: {path: $ROOT/sampled, compression: gzip}
                """;
        assertTrue(run(fx.job(yaml)));
        int sampled = TestFiles.allLines(root.resolve("sampled")).size();
        assertTrue(sampled > 20 && sampled < 40, "about half of 60 kept, got " + sampled);
        assertEquals(2, Completions.completedRanks(root.resolve("logs/sample")).cardinality());
    }

    @Test
    void unchangedDocumentsAreWrittenInTheFormTheNextStageReads() throws IOException {
        // Lines read with other keys, with default metadata, or without an id, passing no step that changes
        // them: copying such a line as it was lost the default metadata and the id, and the next stage,
        // reading "text", failed on "no 'text' key".
        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/a.jsonl"), """
                {"content": "one two three", "uid": "u1", "lang": "en"}
                {"content": "four five six"}
                """);
        Files.writeString(root.resolve("in/b.jsonl"), "{\"text\": \"seven eight\", \"id\": \"b1\"}\n{\"text\": \"nine\"}\n");
        JobFixture fx = new JobFixture(root);
        assertTrue(run(fx.job("""
                name: test
                logging_dir: $ROOT/logs
                stages:
                  - name: own_keys
                    steps:
                      - read_jsonl: {path: $ROOT/in, glob: "a.jsonl", text_key: content, id_key: uid, default_metadata: {dataset: mine}}
                      - write_jsonl: {path: $ROOT/out, compression: none}
                  - name: defaults
                    steps:
                      - read_jsonl: {path: $ROOT/in, glob: "b.jsonl"}
                      - write_jsonl: {path: $ROOT/out2, compression: none}
                  - name: next
                    steps:
                      - read_jsonl: {path: $ROOT/out}
                      - write_jsonl: {path: $ROOT/out3, compression: none}
                """)));
        assertEquals(List.of(
                        "{\"text\":\"one two three\",\"id\":\"u1\",\"metadata\":{\"dataset\":\"mine\",\"lang\":\"en\"}}",
                        "{\"text\":\"four five six\",\"id\":\"a.jsonl/1\",\"metadata\":{\"dataset\":\"mine\"}}"),
                TestFiles.allLines(root.resolve("out")));
        // a line with datatrove's keys and an id is copied byte for byte; one without an id gets the id it was read with
        assertEquals(List.of("{\"text\": \"seven eight\", \"id\": \"b1\"}", "{\"text\":\"nine\",\"id\":\"b.jsonl/1\"}"),
                TestFiles.allLines(root.resolve("out2")));
        assertEquals(TestFiles.allLines(root.resolve("out")), TestFiles.allLines(root.resolve("out3")));

        // datatrove's media field survives serialising, in its place (before, it was dropped)
        Files.writeString(root.resolve("in/c.jsonl"), "{\"text\": \"ten\", \"id\": \"c1\", \"media\": [{\"id\": \"m1\","
                + " \"media_bytes\": \"" + "A".repeat(20_000_001) + "\"}]}\n");
        assertTrue(run(fx.job("""
                name: media
                logging_dir: $ROOT/logs-media
                stages:
                  - name: tagged
                    steps:
                      - read_jsonl: {path: $ROOT/in, glob: "c.jsonl", default_metadata: {dataset: mine}}
                      - write_jsonl: {path: $ROOT/out4, compression: none}
                """)));
        String line = TestFiles.allLines(root.resolve("out4")).getFirst();
        assertTrue(line.startsWith("{\"text\":\"ten\",\"id\":\"c1\",\"media\":[{\"id\":\"m1\",\"media_bytes\":\"AAA"), line.substring(0, 80));
        assertTrue(line.endsWith("\"}],\"metadata\":{\"dataset\":\"mine\"}}"), line.substring(line.length() - 60));
    }

    /**
     * The saved plan records each file's size: a re-run after an input file changed or went (a line mended in a
     * split file, a shard deleted) no longer reads the new bytes beside completed ranks that hold the old content,
     * exit 0, nor fails a rank on "no such file"; validate tells it too. A stage whose ranks are all complete runs
     * nothing, and says its outputs are of the input as it was.
     */
    @Test
    void aRerunRefusesInputThatChangedUnderItsCompletedRanks() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = fx.corpus("in", 3, 40);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        Completions.unmark(root.resolve("logs/clean"), 0); // as if it had failed
        Path part = in.resolve("part-001.jsonl.gz");
        long before = Files.size(part);
        TestFiles.write(part, TestFiles.doc("mended", "one document where forty were, and longer than five words"));

        JobException e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertEquals("stage 'clean': input " + part + " is " + Files.size(part) + " bytes now; it was " + before
                + " bytes when read, and rank(s) 1 that read it have completed, and others are still to run ("
                + root.resolve("logs/clean/shard_plan.json") + "). Delete " + root.resolve("logs/clean") + " to run the"
                + " stage again over the input as it is now", e.getMessage());
        e = assertThrows(JobException.class, () -> io.sluice.job.Preflight.check(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(e.getMessage().contains(part + " is " + Files.size(part) + " bytes now"), e.getMessage());

        Files.delete(part);
        e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(e.getMessage().startsWith("stage 'clean': input " + part + " is gone; it was " + before + " bytes"
                + " when read, and rank(s) 1 that read it have completed"), e.getMessage());

        // skip_completed: false runs every rank again: planned over the input as it is now
        TestFiles.write(part, TestFiles.doc("mended", "one document where forty were, and longer than five words"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("workers: 2", "workers: 2\nskip_completed: false"))));
        assertEquals(81, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        assertTrue(TestFiles.allLines(root.resolve("out")).stream().anyMatch(l -> l.contains("\"id\":\"mended\"")));

        // every rank complete: nothing runs, so nothing mixes; the note says the outputs are of the input as it was
        Path other = in.resolve("part-002.jsonl.gz");
        long otherBefore = Files.size(other);
        TestFiles.write(other, TestFiles.doc("later", "a document written after the stage ran"));
        console.reset();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), console.toString());
        assertTrue(console.toString().contains("[clean] note: input " + other + " is " + Files.size(other) + " bytes now; it"
                + " was " + otherBefore + " bytes when read; the stage's ranks are all complete and skipped, so its outputs"
                + " are of the input as it was. To run it over the input as it is now, delete " + root.resolve("logs/clean")),
                console.toString());
    }

    /**
     * A plain file the plan cuts into byte ranges by its old size is refused even when no completed rank read it,
     * as the old ranges now cut lines in two; a damaged gzip file mended after its rank failed is read whole, as
     * it is now (aFailingRankLeavesNoMarkerAndTheOthersComplete).
     */
    @Test
    void aChangedFileThePlanCutsIsRefusedThoughItsRanksDidNotComplete() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = Files.createDirectories(root.resolve("in"));
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            big.append(TestFiles.doc("big-" + i, "a plain document of more than five words, number " + i));
        }
        Files.writeString(in.resolve("a.jsonl"), big);
        TestFiles.write(in.resolve("b.jsonl.gz"), TestFiles.doc("small", "a gzip document of more than five words"));
        String job = JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "split_size: 32K");
        assertTrue(run(fx.job(job)));
        io.sluice.io.ShardPlan plan = io.sluice.io.ShardPlan.read(root.resolve("logs/clean/shard_plan.json"));
        assertTrue(plan.cuts("a.jsonl"), plan.toString());
        assertEquals(List.of(0, 1), plan.ranksReading("a.jsonl"), "two pieces, and rank 2 reads b");
        Completions.unmark(root.resolve("logs/clean"), 0); // as if killed before they completed
        Completions.unmark(root.resolve("logs/clean"), 1);
        Files.writeString(in.resolve("a.jsonl"), TestFiles.doc("added", "one more document of more than five words"),
                java.nio.file.StandardOpenOption.APPEND);
        JobException e = assertThrows(JobException.class, () -> run(fx.job(job)));
        assertTrue(e.getMessage().contains(in.resolve("a.jsonl") + " is " + Files.size(in.resolve("a.jsonl"))
                + " bytes now; it was " + big.length() + " bytes when read, and the plan cuts it into byte ranges by"
                + " that size"), e.getMessage());
    }

    /** A plan no completed rank read by (a run killed early) is made again over the changed input, without a word. */
    @Test
    void aPlanNoRankCompletedIsMadeAgainOverChangedInput() throws IOException {
        JobFixture fx = new JobFixture(root);
        Path in = fx.corpus("in", 3, 40);
        io.sluice.io.ShardPlan.compute(in, List.of("part-000.jsonl.gz", "part-001.jsonl.gz", "part-002.jsonl.gz"), 3, 0,
                file -> false).write(Files.createDirectories(root.resolve("logs/clean")).resolve("shard_plan.json"));
        TestFiles.write(in.resolve("part-001.jsonl.gz"), TestFiles.doc("mended", "one document, longer than five words"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), console.toString());
        assertEquals(81, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
    }

    @Test
    void preflightRejectsMissingInputsBeforeAnyWork() throws IOException {
        JobFixture fx = new JobFixture(root);
        JobException e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(e.getMessage().contains("stages[0] (clean).steps[0] (read_jsonl): input path " + root.resolve("in")
                + " does not exist"), e.getMessage());
        assertFalse(Files.exists(root.resolve("logs/clean")), "nothing ran");

        Files.createDirectories(root.resolve("in"));
        Files.writeString(root.resolve("in/notes.txt"), "x");
        e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(e.getMessage().endsWith("no file in " + root.resolve("in") + " matches glob '*.jsonl.gz'"), e.getMessage());

        // an input that cannot be read is the job file's problem, named by its step, as a missing one is (it was
        // "error: <file>: permission denied", exit 1; root, as in CI, reads any file, but not this one)
        e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB.replace("$ROOT/in,", "/proc/self/mem,"))));
        assertTrue(e.getMessage().endsWith("job.yaml:8: stages[0] (clean).steps[0] (read_jsonl): cannot read the input:"
                + " /proc/self/mem: Input/output error"), e.getMessage());

        // files one level down: the glob matches their names, not their paths, and the message says how to read them
        fx.corpus("in/2024", 2, 3);
        e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(e.getMessage().endsWith("matches glob '*.jsonl.gz'; 2 file(s) in its subfolders have such a name:"
                + " glob '**/*.jsonl.gz' reads them"), e.getMessage());
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "glob: \"**/*.jsonl.gz\""))));
        assertEquals(6, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));

        // "**/" also matches the files at the top, as fsspec's glob does; and a folder given as a symbolic
        // link is read where it points (before: "no file in" it, as the walk did not follow the link)
        fx.corpus("in", 1, 3);
        Path link = Files.createSymbolicLink(root.resolve("in-link"), root.resolve("in"));
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("$ROOT/in,", link + ",")
                .replace("glob: \"*.jsonl.gz\"", "glob: \"**/*.jsonl.gz\""))));
        assertEquals(9, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        // and "**/" before a folder matches that folder at the top too
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "glob: \"**/2024/*.jsonl.gz\""))));
        assertEquals(6, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        // recursive: false bounds "**" alone (datatrove passes fsspec's glob maxdepth=1): a glob naming the subfolder
        // still reads it (it was refused: no file matched), and "**/" stands for no folder at all
        String flat = JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "glob: \"2024/*.jsonl.gz\", recursive: false");
        e = assertThrows(JobException.class, () -> run(fx.job(flat.replace("2024/*.jsonl.gz", "**/2024/*.jsonl.gz"))));
        assertTrue(e.getMessage().endsWith("no file in " + root.resolve("in") + " matches glob '**/2024/*.jsonl.gz'"
                + " (recursive: false)"), e.getMessage());
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(flat)));
        assertEquals(6, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(flat.replace("2024/*.jsonl.gz", "**/*.jsonl.gz"))));
        assertEquals(3, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        // braces too (they read the whole tree), and a "**/" inside a glob stands for no folder as well, recursive or
        // not (Java's glob wants one: "2024/**/*.jsonl.gz" read nothing where fsspec reads 2024's files)
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(flat.replace("2024/*.jsonl.gz", "**/*.{jsonl.gz,json}"))));
        assertEquals(3, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        for (String recursive : List.of("false", "true")) {
            TestFiles.deleteRecursively(root.resolve("logs"));
            assertTrue(run(fx.job(flat.replace("2024/*.jsonl.gz", "2024/**/*.jsonl.gz").replace("false", recursive))));
            assertEquals(6, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        }

        // a subfolder that is a link is walked, as fsspec's find does (before, its 6 documents were left out)
        fx.corpus("elsewhere/2025", 2, 3);
        Files.createSymbolicLink(root.resolve("in/2025"), root.resolve("elsewhere/2025"));
        String all = JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "glob: \"**/*.jsonl.gz\"");
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(all)));
        assertEquals(15, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));

        // a matching link to nothing is an error naming it (before, left out without a word)
        Path dangling = Files.createSymbolicLink(root.resolve("in/part-009.jsonl.gz"), root.resolve("gone.jsonl.gz"));
        TestFiles.deleteRecursively(root.resolve("logs"));
        e = assertThrows(JobException.class, () -> run(fx.job(all)));
        assertTrue(e.getMessage().endsWith("(read_jsonl): input " + dangling + " is a symbolic link to "
                + root.resolve("gone.jsonl.gz") + ", which does not exist; mend or remove the link, or give a glob that"
                + " leaves it out"), e.getMessage());
        Files.delete(dangling);

        // a link back up the tree is not walked again (before this round, an error; before the walk followed links,
        // left alone): its files are read where they are, once
        Files.createSymbolicLink(root.resolve("in/2024/up"), root.resolve("in"));
        assertTrue(run(fx.job(all)));
        assertEquals(15, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
        // a glob without "**" walks no deeper than its parts: a dangling link two levels down is not looked at
        Files.createSymbolicLink(root.resolve("in/2024/part-009.jsonl.gz"), root.resolve("gone.jsonl.gz"));
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertEquals(3, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents"));
    }

    /** A merge of a folder no step writes and no stats are in: before, a warning in the rank's log, and complete. */
    @Test
    void preflightRejectsAMergeOfAFolderWithoutStats() throws IOException {
        JobFixture fx = new JobFixture(root);
        Files.createDirectories(root.resolve("empty"));
        String merge = """
                logging_dir: $ROOT/logs
                stages:
                  - name: merge
                    steps:
                      - merge_stats: {input: $ROOT/empty}
                """;
        JobException e = assertThrows(JobException.class, () -> run(fx.job(merge)));
        assertEquals("job.yaml:5: stages[0] (merge).steps[0] (merge_stats): input folder " + root.resolve("empty") + " holds no stats"
                + " (<group>/<stat>/NNNNN.json) and no earlier step writes it; merge_stats' input is the output folder of"
                + " the stats steps", e.getMessage());
        // datatrove's per-rank files, or a merge done before (remove_input leaves the stat folders), are stats
        Files.createDirectories(root.resolve("empty/summary/length"));
        Files.writeString(root.resolve("empty/summary/length/00000.json"), "{\"summary\": {\"total\": 3, \"n\": 1, \"mean\": 3.0}}");
        assertTrue(run(fx.job(merge)));
        assertTrue(Files.exists(root.resolve("empty/summary/length/metric.json")));
    }

    /** A misnamed input is refused before the job runs (before, its rank failed, on Slurm after the queue). */
    @Test
    void preflightRejectsAnInputWhoseFirstBytesAreNotWhatItsNameSays() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 2, 4);
        Files.writeString(root.resolve("in/part-009.jsonl.gz"), "{\"text\": \"plain text under a .gz name\"}\n");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        assertEquals("job.yaml:8: stages[0] (clean).steps[0] (read_jsonl): " + root.resolve("in/part-009.jsonl.gz")
                + ": not a gzip file (the extension says .gz but the first bytes do not match)", e.getMessage());
        assertFalse(Files.exists(root.resolve("logs/clean")), "nothing ran");
        // with on_error: skip such a file is counted and skipped as the ranks read it
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"}", "glob: \"*.jsonl.gz\", on_error: skip}"))));
        assertEquals(1, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("skipped_corrupt_files"));
    }

    @Test
    void preflightRejectsAnUnwritableOutput() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 1, 4);
        Files.writeString(root.resolve("afile"), "x");
        String yaml = JobFixture.CLEAN_JOB.replace("$ROOT/out", "$ROOT/afile/out");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(yaml)));
        assertTrue(e.getMessage().contains("(write_jsonl): path: output folder " + root.resolve("afile/out") + " is not writable"),
                e.getMessage());
        // the logging dir's problem names the job file and the key's line, as every other one does
        e = assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB.replace("$ROOT/logs", "$ROOT/afile/logs"))));
        assertTrue(e.getMessage().matches("[^ ]+\\.yaml:2: logging_dir: output folder " + java.util.regex.Pattern.quote(
                root.resolve("afile/logs").toString()) + " is not writable .*"), e.getMessage());
    }

    private String preflightError(String yaml) throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        return assertThrows(JobException.class, () -> run(fx.job(yaml))).getMessage();
    }

    @Test
    void preflightRejectsOutputsThatRanksOrStepsWouldShare() throws IOException {
        // without ${rank}, the three ranks each wrote all.jsonl.zst and the last rename won
        String e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: all.jsonl.zst}"));
        assertTrue(e.contains("(write_jsonl): output_filename 'all.jsonl.zst' has no ${rank}, so the 3 ranks of stage 'clean'"
                + " would write the same files"), e);
        // kept and dropped documents in the same files
        e = preflightError(JobFixture.CLEAN_JOB.replace("$ROOT/removed", "$ROOT/out"));
        assertTrue(e.contains("(write_jsonl): writes " + root.resolve("out/${rank}.jsonl.zst")
                + ", as stages[0] (clean).steps[1] (length_filter) at line 9 does"), e);
        assertFalse(Files.exists(root.resolve("logs/clean")), "nothing ran");
    }

    @Test
    void preflightRejectsStatsThatAReaderWouldReadBackOrThatTwoStepsWouldShare() throws IOException {
        String noGlob = JobFixture.CLEAN_JOB.replace(", glob: \"*.jsonl.gz\"", "");
        // before, validate passed and a second run failed on stats/.../00000.json: "no 'text' key"
        String e = preflightError(noGlob.replace("      - write_jsonl: {path: $ROOT/out}",
                "      - doc_stats: {output: $ROOT/in/stats}\n      - write_jsonl: {path: $ROOT/out}"));
        assertTrue(e.contains("stages[0] (clean).steps[2] (doc_stats): writes into " + root.resolve("in/stats") + ", inside "
                + root.resolve("in") + ", which stages[0] (clean).steps[0] (read_jsonl) at line 8 reads with recursive: true"), e);
        e = preflightError(noGlob.replace("      - write_jsonl: {path: $ROOT/out}",
                "      - doc_stats: {output: $ROOT/stats}\n      - write_jsonl: {path: $ROOT/out}") + """
                  - name: merge
                    steps:
                      - merge_stats: {input: $ROOT/stats, output: $ROOT/in/merged}
                """);
        assertTrue(e.contains("stages[1] (merge).steps[0] (merge_stats): writes into " + root.resolve("in/merged")), e);
        // before, validate passed; the stage with fewer tasks removed the other's files of its missing ranks,
        // and the merge summed its documents alone
        String twice = JobFixture.CLEAN_JOB.replace("      - write_jsonl: {path: $ROOT/out}",
                "      - doc_stats: {output: $ROOT/stats, groups: [summary]}\n      - write_jsonl: {path: $ROOT/out}") + """
                  - name: other
                    tasks: 2
                    steps:
                      - read_jsonl: {path: $ROOT/out}
                      - word_stats: {output: $ROOT/stats}
                      - doc_stats: {output: $ROOT/stats, groups: [histogram, summary]}
                """;
        e = preflightError(twice);
        assertTrue(e.contains("stages[1] (other).steps[2] (doc_stats): writes per-rank stats to "
                + root.resolve("stats/summary/length") + ", as stages[0] (clean).steps[2] (doc_stats) at line 10 does"), e);
        // different stats, or different groups of the same stats, may share a folder
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(twice.replace("groups: [histogram, summary]", "groups: [histogram]"))));
    }

    @Test
    void aRegexThatRecursesDeeplyRunsAndAStepErrorNamesItsDocument() throws IOException {
        // before, '(a|b)+c' over 12,000 characters overflowed the stack: "java.lang.StackOverflowError" and nothing more
        TestFiles.write(root.resolve("in/r.jsonl"), TestFiles.doc("long", "Some prose. " + "ab".repeat(6000) + " end")
                + TestFiles.doc("short", "abc"));
        JobFixture fx = new JobFixture(root);
        String yaml = """
                logging_dir: $ROOT/logs
                stages:
                  - name: rx
                    steps:
                      - read_jsonl: {path: $ROOT/in}
                      - STEP
                      - write_jsonl: {path: $ROOT/out}
                """;
        assertTrue(run(fx.job(yaml.replace("STEP", "regex_filter: {regex: '(a|b)+c'}"))), console.toString());
        assertEquals(List.of("long"), TestFiles.allLines(root.resolve("out")).stream()
                .map(l -> l.replaceAll(".*\"id\":\"([^\"]*)\".*", "$1")).toList());

        // an Error inside a step: the console and the task log name the step and the document
        io.sluice.job.StepRegistry.register("overflowing_step", args -> new io.sluice.pipeline.Step() {
            @Override
            public void process(io.sluice.doc.Document doc, io.sluice.pipeline.DocumentSink next) {
                if (doc.id().equals("short")) {
                    throw new StackOverflowError();
                }
            }
        });
        TestFiles.deleteRecursively(root.resolve("logs"));
        try {
            assertFalse(run(fx.job(yaml.replace("STEP", "overflowing_step: {}"))));
        } finally {
            io.sluice.job.StepRegistry.unregister("overflowing_step"); // the registry is the JVM's, shared by every test
        }
        String said = "overflowing_step failed on document 'short' (r.jsonl:2 (byte 12040)): the stack overflowed";
        assertTrue(console.toString().contains("rank 0: " + said), console.toString());
        assertTrue(Files.readString(root.resolve("logs/rx/logs/task_00000.log")).contains(said));

        // a failure as a step finishes (writing its files, say) names the step too: before, only the file
        io.sluice.job.StepRegistry.register("full_disk_step", args -> new io.sluice.pipeline.Step() {
            @Override
            public void process(io.sluice.doc.Document doc, io.sluice.pipeline.DocumentSink next) throws java.io.IOException {
                next.accept(doc);
            }

            @Override
            public void finish(io.sluice.pipeline.DocumentSink next) throws java.io.IOException {
                throw new java.nio.file.FileSystemException("/out/00000.json", null, "No space left on device");
            }
        });
        TestFiles.deleteRecursively(root.resolve("logs"));
        try {
            assertFalse(run(fx.job(yaml.replace("STEP", "full_disk_step: {}"))));
        } finally {
            io.sluice.job.StepRegistry.unregister("full_disk_step");
        }
        said = "full_disk_step failed as it finished: /out/00000.json: No space left on device";
        assertTrue(console.toString().contains("rank 0: " + said), console.toString());
        assertTrue(Files.readString(root.resolve("logs/rx/logs/task_00000.log")).contains(said));
    }

    @Test
    void aRankAnotherRunHoldsIsLeftToItAndOneItFinishedIsNotRunAgain() throws Exception {
        JobFixture fx = threeFilesOf8();
        Job job = fx.job(JobFixture.CLEAN_JOB);
        Path stage = root.resolve("logs/clean");
        // before, two runs on one logging dir ran a rank at once: one truncated the other's temporary file,
        // and an empty output was marked complete
        try (io.sluice.io.ProcessLock held = RankLock.tryAcquire(stage, 1)) {
            assertTrue(held != null);
            assertFalse(run(job));
        }
        assertTrue(console.toString().contains("rank 1: is being run by pid " + ProcessHandle.current().pid() + " on "),
                console.toString());
        assertTrue(Completions.isComplete(stage, 0) && !Completions.isComplete(stage, 1) && Completions.isComplete(stage, 2));
        assertFalse(Files.exists(root.resolve("out/00001.jsonl.zst")));

        // a rank the other run completed while this one waited for it is not run again
        byte[] before = Files.readAllBytes(root.resolve("out/00000.jsonl.zst"));
        java.nio.file.attribute.FileTime written = Files.getLastModifiedTime(root.resolve("out/00000.jsonl.zst"));
        Job.Stage clean = job.stages().get(0);
        assertEquals(null, RankRunner.run(clean, stage, 0, List.of(), new io.sluice.pipeline.ProgressCounter(), true, holder -> { }));
        assertEquals(written, Files.getLastModifiedTime(root.resolve("out/00000.jsonl.zst")));
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(root.resolve("out/00000.jsonl.zst"))));
        assertTrue(run(job));
        assertTrue(console.toString().contains("done: 1 rank(s) run, 2 skipped"), console.toString());
    }

    /** Another process holding a rank's lock, named in the lock file as {@code holder}; it lets go after {@code seconds}. */
    private static Process holdRankLock(Path lockFile, String holder, int seconds) throws IOException {
        Files.createDirectories(lockFile.getParent());
        // a POSIX record lock, as a second launcher's JVM takes
        Process other = new ProcessBuilder("python3", "-c", "import fcntl, os, sys, time\n"
                + "open(sys.argv[1], 'a').close()\nf = open(sys.argv[1], 'r+')\n"
                + "fcntl.lockf(f, fcntl.LOCK_EX)\nf.truncate(0)\nf.write(sys.argv[2].replace('PID', str(os.getpid())))\n"
                + "f.flush()\nprint('locked', flush=True)\ntime.sleep(int(sys.argv[3]))\n", lockFile.toString(), holder,
                String.valueOf(seconds)).start();
        assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream())).readLine());
        return other;
    }

    @Test
    void aRankLockedByAProcessOnAnotherHostIsLeftToIt() throws Exception {
        JobFixture fx = threeFilesOf8();
        Process other = holdRankLock(root.resolve("logs/clean/locks/00001.lock"), "pid 4242 on node7", 120);
        try {
            assertFalse(run(fx.job(JobFixture.CLEAN_JOB)));
            assertTrue(console.toString().contains("rank 1: is being run by pid 4242 on node7: another run of this job"),
                    console.toString());
            assertTrue(Completions.isComplete(root.resolve("logs/clean"), 0) && !Completions.isComplete(root.resolve("logs/clean"), 1));
        } finally {
            other.destroy();
            other.waitFor();
        }
        // its process gone, the lock is too
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), console.toString());
        assertEquals(3, TestFiles.files(root.resolve("out")).size());
    }

    @Test
    void aRankAnotherRunOnThisHostHoldsIsWaitedFor() throws Exception {
        JobFixture fx = threeFilesOf8();
        String host = java.net.InetAddress.getLocalHost().getHostName();
        // another local run of the job holds rank 1 for a moment, then ends without completing it; before, this
        // run failed the rank at once (and the other run failed the ranks this one held)
        Process other = holdRankLock(root.resolve("logs/clean/locks/00001.lock"), "pid PID on " + host, 2);
        try {
            assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), console.toString());
            assertFalse(other.isAlive(), "the run waited for the other process's lock");
        } finally {
            other.destroy();
            other.waitFor();
        }
        assertTrue(console.toString().contains("done: 3 rank(s) run, 0 skipped"), console.toString());
        assertTrue(console.toString().contains("[clean] rank 1 is being run by pid " + other.pid() + " on " + host
                + ", another run of this job here: waiting for it\n"), console.toString());
        assertEquals(3, TestFiles.files(root.resolve("out")).size());
    }

    /**
     * Runs of one logging dir take turns at job.json and at preparing a stage (.job.lock), so that one does not
     * remove the files another's ranks have just written: while another process holds the lock, a run says so and
     * waits before writing anything, and goes on once it is released.
     */
    @Test
    void aRunWaitsWhileAnotherProcessHoldsTheJobLock() throws Exception {
        JobFixture fx = threeFilesOf8();
        Job job = fx.job(JobFixture.CLEAN_JOB);
        Path lockFile = root.resolve("logs/.job.lock");
        Files.createDirectories(lockFile.getParent());
        // a POSIX record lock, as another launcher's JVM takes, held until this test closes the process's input
        Process other = new ProcessBuilder("python3", "-c", "import fcntl, sys\n"
                + "f = open(sys.argv[1], 'a+')\nfcntl.lockf(f, fcntl.LOCK_EX)\nf.truncate(0)\nf.write('pid 4242 on node7')\n"
                + "f.flush()\nprint('locked', flush=True)\nsys.stdin.read()\n", lockFile.toString()).start();
        try {
            assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream())).readLine());
            java.util.concurrent.FutureTask<Boolean> running = new java.util.concurrent.FutureTask<>(() -> run(job));
            new Thread(running, "second run").start();
            Thread.sleep(1500);
            assertFalse(running.isDone(), console.toString());
            assertFalse(Files.exists(root.resolve("logs/job.json")), "nothing written while the other holds the lock");
            assertFalse(Files.exists(root.resolve("out")));
            // before, it said nothing: a run held up by a hung one seemed hung itself
            assertTrue(console.toString().contains("waiting for pid 4242 on node7, another run of this job's logging dir,"
                    + " to finish writing job.json or preparing a stage (" + lockFile + ")"), console.toString());

            other.getOutputStream().close(); // the other process ends, and its lock with it
            assertTrue(running.get(120, java.util.concurrent.TimeUnit.SECONDS), console.toString());
        } finally {
            other.destroy();
            other.waitFor();
        }
        assertTrue(Files.exists(root.resolve("logs/job.json")));
        assertEquals(3, TestFiles.files(root.resolve("out")).size());
        assertEquals(3, Completions.completedRanks(root.resolve("logs/clean")).cardinality());
    }

    /** The clean job over 10 documents without URLs, with {@code step} in place of its length filter. */
    private boolean runCleanJobWith(JobFixture fx, String step) throws IOException {
        fx.corpus("in", 2, 5);
        return run(fx.job(JobFixture.CLEAN_JOB.replace("length_filter: {min_words: 5, exclusion_output: $ROOT/removed}", step)));
    }

    @Test
    void aFilterThatDropsEveryDocumentForOneReasonIsNoted() throws IOException {
        JobFixture fx = new JobFixture(root);
        // before, the stage ended "done" with nothing kept, and only the task log said the URL was missing
        assertTrue(runCleanJobWith(fx, "url_filter: {banned_domains: [bad.org]}"));
        assertTrue(console.toString().contains("[clean] note: url_filter dropped all 10 documents it saw as 'missing_url';"
                + " its task logs say more"), console.toString());
        console.reset();
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertFalse(console.toString().contains("dropped all"), console.toString());
    }

    @Test
    void documentsWithoutAUrlAreNotedOnTheConsole() throws IOException {
        // the stats blocks go on without the document's domain, where datatrove stops; before, only the task log said so
        String blocks = "doc_stats: {output: $ROOT/stats, groups: [summary, fqdn]}\n"
                + "      - word_stats: {output: $ROOT/stats, groups: [fqdn, suffix]}\n"
                + "      - line_stats: {output: $ROOT/stats, groups: [histogram, fqdn]}\n"
                + "      - paragraph_stats: {output: $ROOT/stats, groups: [fqdn]}";
        assertTrue(runCleanJobWith(new JobFixture(root), blocks));
        // each block named with the counters it has (before: all three "as no_url_fqdn, no_url_suffix")
        assertTrue(console.toString().contains("[clean] note: no URL in 10 of 10 documents, counted by doc_stats, line_stats and"
                + " paragraph_stats (no_url_fqdn), word_stats (no_url_fqdn, no_url_suffix); url_key says where it is looked for"
                + " (the task logs name the key a document holds one under, if any)"),
                console.toString());
        // run again, every rank skipped: said once, not on every run
        console.reset();
        assertTrue(runCleanJobWith(new JobFixture(root), blocks));
        assertFalse(console.toString().contains("no URL"), console.toString());
    }

    /** Hidden files the glob matches are not read, as before, but said so (datatrove reads them; it was silent). */
    @Test
    void hiddenInputFilesTheGlobMatchesAreNoted() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 2, 5);
        Path first = TestFiles.files(root.resolve("in")).get(0);
        Files.copy(first, root.resolve("in/.hidden.jsonl.gz"));
        Files.copy(first, root.resolve("in/cut.jsonl.gz.tmp"));
        String job = JobFixture.CLEAN_JOB.replace("glob: \"*.jsonl.gz\"", "glob: \"*.jsonl.gz*\"");
        assertTrue(run(fx.job(job)));
        assertTrue(console.toString().contains("[clean] note: " + root.resolve("in") + " holds 2 file(s) that are hidden or"
                + " unfinished outputs (*.tmp), which are not read: .hidden.jsonl.gz, ..."), console.toString());
        assertEquals(10, TestFiles.allLines(root.resolve("out")).size() + TestFiles.allLines(root.resolve("removed")).size());
        console.reset();
        assertTrue(run(fx.job(job)));
        assertFalse(console.toString().contains("not read"), "said once, when the plan is made: " + console);

        // only hidden files: the refusal says that they match (before: "no file matches", which was untrue)
        Path hiddenOnly = root.resolve("hidden-only");
        Files.createDirectories(hiddenOnly);
        Files.copy(first, hiddenOnly.resolve(".a.jsonl.gz"));
        io.sluice.job.JobException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> run(fx.job(JobFixture.CLEAN_JOB.replace("$ROOT/in", "$ROOT/hidden-only").replace("$ROOT/logs", "$ROOT/logs2"))));
        assertTrue(e.getMessage().contains("no file in " + hiddenOnly + " matches glob '*.jsonl.gz' but 1 file(s) that are"
                + " hidden or unfinished outputs (*.tmp), which are not read: .a.jsonl.gz"), e.getMessage());
    }

    /** The clean job with a line_stats step of {@code args} writing to $ROOT/stats before its writer. */
    /** A job of one merge_stats stage of {@code tasks} ranks over $ROOT/stats ({@code args}: ", key: value"), logs in $ROOT/mlogs. */
    private static String mergeJob(int tasks, String args) {
        return "name: m\nlogging_dir: $ROOT/mlogs\nstages:\n  - {name: m, tasks: " + tasks + ", steps: [{merge_stats:"
                + " {input: $ROOT/stats" + args + "}}]}\n";
    }

    /** Sets {@code file}'s modification time {@code millis} earlier. */
    private static void backdate(Path file, long millis) throws IOException {
        Files.setLastModifiedTime(file,
                java.nio.file.attribute.FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - millis));
    }

    private static String cleanJobWithLineStats(String args) {
        return JobFixture.CLEAN_JOB.replace("      - write_jsonl: {path: $ROOT/out}",
                "      - line_stats: {output: $ROOT/stats, " + args + "}\n      - write_jsonl: {path: $ROOT/out}");
    }

    @Test
    void statsOfAnEarlierRunThatThisJobDoesNotWriteAreNoted() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        String stats = cleanJobWithLineStats("groups: [summary, histogram]");
        assertTrue(run(fx.job(stats)));
        assertFalse(console.toString().contains("no step of this job writes"), console.toString());
        // before, nothing said that merge_stats would merge the histograms of the first run with this run's summary
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(stats.replace("groups: [summary, histogram]", "groups: [summary]"))));
        assertTrue(console.toString().contains("[clean] note: " + root.resolve("stats") + " holds per-rank stats in 20"
                + " folder(s) no step of this job writes (histogram/"), console.toString());
        // the summary files this run replaces were a run's the logging dir does not know (another job's, say)
        assertTrue(console.toString().contains("[clean] note: " + root.resolve("stats") + " already holds per-rank stats"
                + " in 10 of the folders this stage writes, from a run this logging dir has no record of"), console.toString());
    }

    @Test
    void aMergeIntoAnotherFolderRunAgainNotesNothing() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(cleanJobWithLineStats("groups: [summary]"))));
        String merge = mergeJob(1, ", output: $ROOT/merged");
        assertTrue(run(fx.job(merge)));
        Files.delete(root.resolve("mlogs/m/completions/00000"));
        console.reset();
        assertTrue(run(fx.job(merge)));
        // before, the folders this run makes again were noted as stale merged stats no step of the job writes
        assertFalse(console.toString().contains("holds merged stats"), console.toString());
    }

    /**
     * A merge job run again after the stats ran again from another logging dir (so no lineage links the two) merges
     * again: it skipped its rank as complete, and metric.json kept the earlier input's sums (n=400 for 160 documents).
     */
    @Test
    void aMergeOlderThanItsPerRankFilesRunsAgain() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        String stats = cleanJobWithLineStats("groups: [summary]");
        assertTrue(run(fx.job(stats)));
        String merge = mergeJob(1, ", output: $ROOT/merged");
        assertTrue(run(fx.job(merge)));
        Path nLines = root.resolve("merged/summary/n_lines/metric.json");
        assertTrue(Files.readString(nLines).contains("\"total\": 9,"), Files.readString(nLines));
        console.reset();
        assertTrue(run(fx.job(merge)));
        assertTrue(console.toString().contains("[m] 1 rank(s) already complete, skipped"), console.toString());

        // the new per-rank files are later than the merge's completion, also on a file system of whole seconds
        backdate(root.resolve("mlogs/m/completions/00000"), 10_000);
        TestFiles.deleteRecursively(root.resolve("in"));
        fx.corpus("in", 3, 2);
        assertTrue(run(fx.job(stats.replace("$ROOT/logs", "$ROOT/logs2"))));
        console.reset();
        assertTrue(run(fx.job(merge)));
        String out = console.toString();
        assertTrue(out.contains("[m] note: 1 completed rank(s) merged before per-rank stats they read were written ("
                + root.resolve("stats/summary")), out);
        assertFalse(out.contains("already complete"), out);
        assertTrue(Files.readString(nLines).contains("\"total\": 3,"), Files.readString(nLines));
    }

    /**
     * A block of a merge stage's ranks (a Slurm element, local_tasks) merges again its own outdated ranks only: it
     * withdrew the completions of the others, which no one then ran.
     */
    @Test
    void anOutdatedMergeIsToldAmongTheBlocksOwnRanksOnly() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(cleanJobWithLineStats("groups: [summary]"))));
        String merge = mergeJob(2, ", output: $ROOT/merged");
        assertTrue(run(fx.job(merge)));
        for (int r = 0; r < 2; r++) { // both merges older than the stats they read
            backdate(Completions.marker(root.resolve("mlogs/m"), r), 60_000);
        }
        console.reset();
        Job job = fx.job(merge);
        new StageRunner(job, new PrintStream(console, true), false).runBlock(job.stage("m"), 1, 1, 1);
        assertTrue(console.toString().contains("[m] note: 1 completed rank(s) merged before per-rank stats they read"),
                console.toString());
        assertTrue(Files.exists(Completions.marker(root.resolve("mlogs/m"), 0)), "rank 0 is another block's");
        assertTrue(Files.exists(Completions.marker(root.resolve("mlogs/m"), 1)), "rank 1 merged again");
        assertTrue(Files.getLastModifiedTime(Completions.marker(root.resolve("mlogs/m"), 0)).toMillis()
                < Files.getLastModifiedTime(Completions.marker(root.resolve("mlogs/m"), 1)).toMillis());
    }

    /**
     * A merge run again after one with remove_input finds nothing to merge: its log says so and that its top_k was not
     * applied, and the folders that merge made are not called stale ("merged stats ... no step of this job writes").
     */
    @Test
    void aMergeAfterOneThatRemovedItsInputSaysThereIsNothingToMerge() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(cleanJobWithLineStats("groups: [summary]"))));
        String merge = mergeJob(1, ", remove_input: true");
        assertTrue(run(fx.job(merge)));
        console.reset();
        assertTrue(run(fx.job(merge.replace("mlogs", "mlogs2").replace("remove_input: true", "top_k: 5"))));
        assertFalse(console.toString().contains("holds merged stats"), console.toString());
        assertTrue(Files.readString(root.resolve("mlogs2/m/logs/task_00000.log")).contains("nothing to merge in this rank's"
                + " 10 folder(s): their per-rank files were removed by an earlier merge with remove_input"));
    }

    @Test
    void statsThatTheStageRemovesAreNotNotedButStaleMergedStatsAre() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        String stats = cleanJobWithLineStats("groups: [summary], max_k_chars_per_line_tresholds: [10]")
                + "  - {name: merge, tasks: 1, depends: [clean], steps: [{merge_stats: {input: $ROOT/stats}}]}\n";
        assertTrue(run(fx.job(stats)));
        assertTrue(Files.exists(root.resolve("stats/summary/short_line_ratio_chars_10/metric.json")));
        console.reset();
        // a new threshold, run again as the refusal says: the stage removes its _10 files, which before it also
        // noted as to be merged; the merged _10 stats stay, and now that is said
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        TestFiles.deleteRecursively(root.resolve("logs/merge"));
        assertTrue(run(fx.job(stats.replace("[10]", "[20]"))));
        String out = console.toString();
        assertFalse(out.contains("holds per-rank stats"), out);
        assertTrue(out.contains("[merge] note: " + root.resolve("stats") + " holds merged stats in 1 folder(s) no step of"
                + " this job writes (summary/short_line_ratio_chars_10), from an earlier run or another job: launcher"
                + " report will show them beside this run's; delete them if they are stale"), out);
        assertTrue(Files.exists(root.resolve("stats/summary/short_line_ratio_chars_20/metric.json")));
        assertEquals(List.of(), io.sluice.stats.MergeStats.rankFiles(root.resolve("stats/summary/short_line_ratio_chars_10")));
    }

    @Test
    void preflightRejectsAnOutputThatAReaderOfTheJobWouldReadBack() throws IOException {
        String noGlob = JobFixture.CLEAN_JOB.replace(", glob: \"*.jsonl.gz\"", "");
        // before, validate passed and a second run (new logging_dir) read the first run's output: twice the documents
        String e = preflightError(noGlob.replace("{path: $ROOT/out}", "{path: $ROOT/in/out}"));
        assertTrue(e.contains("stages[0] (clean).steps[2] (write_jsonl): writes into " + root.resolve("in/out") + ", inside "
                + root.resolve("in") + ", which stages[0] (clean).steps[0] (read_jsonl) at line 8 reads with recursive: true, so running"
                + " the job again (with a new logging_dir, say) would read this output back as input"), e);
        e = preflightError(noGlob.replace("$ROOT/in}", "$ROOT/in, recursive: false}").replace("$ROOT/removed", "$ROOT/in"));
        assertTrue(e.contains("(length_filter): writes into " + root.resolve("in") + ", the folder that stages[0]"
                + " (clean).steps[0] (read_jsonl) at line 8 reads"), e);
        // the same folder through a symbolic link (before: not seen, and each rerun read its output back)
        Files.createSymbolicLink(root.resolve("in-link"), root.resolve("in"));
        e = preflightError(noGlob.replace("{path: $ROOT/out}", "{path: $ROOT/in-link/out}"));
        assertTrue(e.contains("(write_jsonl): writes into " + root.resolve("in-link/out") + ", inside " + root.resolve("in")
                + ", which stages[0] (clean).steps[0] (read_jsonl) at line 8 reads with recursive: true"), e);
        e = preflightError(noGlob.replace("$ROOT/in}", "$ROOT/in, recursive: false}").replace("$ROOT/removed", "$ROOT/in-link"));
        assertTrue(e.contains("(length_filter): writes into " + root.resolve("in-link") + ", the folder that stages[0]"
                + " (clean).steps[0] (read_jsonl) at line 8 reads"), e);
        // an output, or the logging dir, that a subfolder of the input links to, which the reader walks (before: not
        // seen, and a run with a new logging_dir read its own output back; the logs failed the ranks as bad JSON)
        Files.createDirectories(root.resolve("out"));
        Files.createSymbolicLink(root.resolve("in/mirror"), root.resolve("out"));
        e = preflightError(noGlob);
        assertTrue(e.contains("(write_jsonl): writes into " + root.resolve("out") + ", which stages[0] (clean).steps[0]"
                + " (read_jsonl) at line 8 reads through a symbolic link to it in " + root.resolve("in")), e);
        Files.delete(root.resolve("in/mirror"));
        Files.createDirectories(root.resolve("logs"));
        Files.createSymbolicLink(root.resolve("in/lg"), root.resolve("logs"));
        e = preflightError(noGlob);
        assertTrue(e.contains("(read_jsonl): reads " + root.resolve("in") + ", which holds, through a symbolic link, the"
                + " job's logging_dir " + root.resolve("logs")), e);
        Files.delete(root.resolve("in/lg"));
        // and a link to the logging dir before it exists (the first run makes it, and its ranks read job.json)
        TestFiles.deleteRecursively(root.resolve("logs"));
        Files.createSymbolicLink(root.resolve("in/lg"), root.resolve("logs"));
        e = preflightError(noGlob.replace("$ROOT/in}", "$ROOT/in, glob: \"**/*.json*\"}"));
        assertTrue(e.contains("(read_jsonl): reads " + root.resolve("in") + ", which holds, through a symbolic link, the"
                + " job's logging_dir " + root.resolve("logs")), e);
        Files.delete(root.resolve("in/lg"));
        // a later stage writing where an earlier stage reads
        e = preflightError(noGlob + """
                  - name: sample
                    steps:
                      - read_jsonl: {path: $ROOT/out}
                      - write_jsonl: {path: $ROOT/in/sampled}
                """);
        assertTrue(e.contains("stages[1] (sample).steps[1] (write_jsonl): writes into " + root.resolve("in/sampled")
                + ", inside " + root.resolve("in") + ", which stages[0] (clean).steps[0] (read_jsonl) at line 8 reads"), e);
        assertFalse(Files.exists(root.resolve("logs/clean")), "nothing ran");
        // the logging dir inside the folder read: before, validate passed and the ranks read job.json as a document
        e = preflightError(noGlob.replace("logging_dir: $ROOT/logs", "logging_dir: $ROOT/in/logs"));
        assertTrue(e.contains("stages[0] (clean).steps[0] (read_jsonl): reads " + root.resolve("in") + ", which holds the"
                + " job's logging_dir " + root.resolve("in/logs") + ", so the ranks would read its files (job.json, the task"
                + " logs) as documents; put logging_dir elsewhere"), e);
        assertFalse(Files.exists(root.resolve("in/logs/clean")), "nothing ran");
        // a glob that leaves the logs out is no conflict
        assertTrue(run(new JobFixture(root).job(JobFixture.CLEAN_JOB.replace("logging_dir: $ROOT/logs", "logging_dir: $ROOT/in/logs"))));
        TestFiles.deleteRecursively(root.resolve("in/logs"));
        TestFiles.deleteRecursively(root.resolve("out"));
        TestFiles.deleteRecursively(root.resolve("removed"));

        // reading an earlier stage's output is the normal chain; a folder the reader does not list is no conflict
        JobFixture fx = new JobFixture(root);
        assertTrue(run(fx.job(noGlob.replace("$ROOT/in}", "$ROOT/in, recursive: false}").replace("$ROOT/out", "$ROOT/in/out")
                + """
                  - name: sample
                    steps:
                      - read_jsonl: {path: $ROOT/in/out}
                      - write_jsonl: {path: $ROOT/sampled}
                """)));
        assertEquals(9, TestFiles.allLines(root.resolve("sampled")).size());
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("$ROOT/logs", "$ROOT/logs2").replace("$ROOT/out", "$ROOT/in/out2"))),
                "glob *.jsonl.gz lists only the folder's own .gz files");
    }

    @Test
    void outputFileNamesStayInsideTheFolderAndAgreeWithTheCompression() throws IOException {
        String e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: \"../${rank}.jsonl.zst\"}"));
        assertTrue(e.contains("'output_filename' must be a file name inside the output folder (relative, without '..'), not '../${rank}.jsonl.zst'"), e);
        e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, compression: gzip, output_filename: \"${rank}.jsonl.zst\"}"));
        assertTrue(e.contains("'output_filename' '${rank}.jsonl.zst' ends in .zst but compression is gzip"), e);

        // datatrove's rule: a name without the compression's extension gets it
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: \"part-${rank}.jsonl\"}"))));
        assertEquals(List.of("part-00000.jsonl.zst", "part-00001.jsonl.zst", "part-00002.jsonl.zst"),
                TestFiles.files(root.resolve("out")).stream().map(p -> p.getFileName().toString()).toList());

        // datatrove's "${rank}.jsonl.gz" (its default is gzip) without a compression: the name says gzip; and
        // datatrove's compression=None is plain files (it was read as the zstd default)
        String job = "name: t\nlogging_dir: $ROOT/logs2\ntasks: 1\nstages:\n  - name: w\n    steps:\n"
                + "      - read_jsonl: {path: $ROOT/in}\n"
                + "      - length_filter: {min_words: 5, exclusion_output: {path: $ROOT/rm, compression: null}}\n"
                + "      - write_jsonl: {path: $ROOT/gz, output_filename: \"${rank}.jsonl.gz\"}\n";
        assertTrue(run(fx.job(job)), console.toString());
        assertEquals(List.of("00000.jsonl.gz"), TestFiles.files(root.resolve("gz")).stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(List.of("00000.jsonl"), TestFiles.files(root.resolve("rm")).stream().map(p -> p.getFileName().toString()).toList());
        assertTrue(Files.readString(root.resolve("rm/00000.jsonl")).contains("\"filter_reason\":\"too_few_words\""));
        byte[] gz = Files.readAllBytes(root.resolve("gz/00000.jsonl.gz"));
        assertEquals(0x1f, gz[0] & 0xff, "gzip data");
        // a name of a compression Sluice reads but does not write is refused before the run, not at the first file
        e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: \"${rank}.jsonl.xz\"}"));
        assertTrue(e.contains("'output_filename' '${rank}.jsonl.xz' ends in .xz but compression is zstd"), e);
    }

    @Test
    void fileNamePlaceholdersThatNameNoKeyAreJobErrorsAndMissingKeysAreCounted() throws IOException {
        // before, ${metadata.source} matched no metadata key and every document went to none_00000.jsonl.zst
        String e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}",
                "{path: $ROOT/out, output_filename: \"${metadata.source}_${rank}.jsonl\"}"));
        assertTrue(e.contains("(write_jsonl): 'output_filename' '${metadata.source}_${rank}.jsonl': '${metadata.source}' names"
                + " no key: a placeholder is ${rank}, ${id} or a metadata key by its own name (write ${source})"), e);
        e = preflightError(JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: \"$source/${rank}\"}"));
        assertTrue(e.contains("'$source' needs braces here: ${source}"), e);
        // keys are named as they are: dots, colons and spaces are a key's own characters
        assertEquals(null, io.sluice.io.JsonlWriter.placeholderProblem("${warc.id}-${dump: 1}_${rank}.jsonl"));

        // a document without the key is written under "none", counted, and the first one of each rank logged
        for (Path f : TestFiles.files(root.resolve("in"))) {
            Files.delete(f);
        }
        TestFiles.write(root.resolve("in/part-000.jsonl.gz"), "{\"text\":\"one two three four five\",\"id\":\"a\",\"source\":\"web\"}\n"
                + TestFiles.doc("b", "one two three four five six") + TestFiles.doc("c", "one two three four five six seven"));
        Job job = new JobFixture(root).job(JobFixture.CLEAN_JOB.replace("tasks: 3", "tasks: 1")
                .replace("{path: $ROOT/out}", "{path: $ROOT/out, output_filename: \"${source}_${rank}.jsonl\"}"));
        assertTrue(run(job));
        assertEquals(List.of("none_00000.jsonl.zst", "web_00000.jsonl.zst"),
                TestFiles.files(root.resolve("out")).stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(2, PipelineStats.read(root.resolve("logs/clean/stats.json")).step("write_jsonl").get("filename_key_missing"));
        String log = Files.readString(root.resolve("logs/clean/logs/task_00000.log"));
        assertTrue(log.contains("WARN rank 0: document 'b' has no metadata key 'source' for output_filename"
                + " '${source}_${rank}.jsonl.zst' of " + root.resolve("out") + ": written to none_00000.jsonl.zst"), log);
        assertEquals(1, log.split("has no metadata key").length - 1, "logged once per rank");
    }

    @Test
    void preflightCreatesNothing() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        io.sluice.job.Preflight.check(fx.job(JobFixture.CLEAN_JOB));
        for (String folder : List.of("out", "removed", "logs")) {
            assertFalse(Files.exists(root.resolve(folder)), folder + " was created by a check that runs nothing");
        }
    }

    @Test
    void idleRanksAndFilesTheStageDoesNotWriteAreNotedBeforeItRuns() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 2, 4);
        Files.createDirectories(root.resolve("out"));
        for (String stray : List.of("00007.jsonl.zst", "other-job.jsonl.zst", "00001.jsonl.zst")) {
            Files.writeString(root.resolve("out").resolve(stray), "");
        }
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        String printed = console.toString();
        assertTrue(printed.contains("[clean] note: 1 of 3 ranks have no input (2 input pieces)"), printed);
        // 00001 is rank 1's (and replaced by it); rank 7 and the other job's file are not this stage's
        assertTrue(printed.contains("[clean] note: " + root.resolve("out") + " holds 2 file(s) this stage does not write"
                + " (00007.jsonl.zst, other-job.jsonl.zst): a stage reading the folder would read them too"), printed);
    }

    /** The files of ranks a changed stage no longer has are its own, removed before it runs: not noted as strays. */
    @Test
    void theFilesOfRanksAChangedStageDropsAreRemovedNotNotedAsStrays() throws IOException {
        JobFixture fx = threeFilesOf8();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        String fewer = JobFixture.CLEAN_JOB.replace("tasks: 3", "tasks: 2");
        JobException refused = assertThrows(JobException.class, () -> run(fx.job(fewer)));
        assertTrue(refused.getMessage().contains("Use a new logging_dir, or delete " + root.resolve("logs/clean")
                + ", to run the changed stage"), refused.getMessage());
        TestFiles.deleteRecursively(root.resolve("logs/clean")); // as the refusal says
        console.reset();
        assertTrue(run(fx.job(fewer)));
        String afterDelete = console.toString();
        // a run killed before any rank completed is planned again for other tasks, without a refusal
        for (int r = 0; r < 2; r++) {
            Files.delete(Completions.marker(root.resolve("logs/clean"), r));
        }
        // not while a rank may still run on another host, reading the saved plan: refused as before
        Path lock = root.resolve("logs/clean/locks/00000.lock");
        String held = Files.readString(lock);
        Files.writeString(lock, "pid 4242 on another-node-of-the-cluster");
        assertThrows(JobException.class, () -> run(fx.job(JobFixture.CLEAN_JOB)));
        Files.writeString(lock, held);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), console.toString());
        assertEquals(3, Completions.completedRanks(root.resolve("logs/clean")).cardinality());
        assertTrue(afterDelete.contains("[clean] removed 6 file(s) an earlier run of the stage wrote"), afterDelete);
        assertFalse(afterDelete.contains("does not write"), afterDelete);
        assertEquals(List.of("00000.jsonl.zst", "00001.jsonl.zst", "00002.jsonl.zst"),
                TestFiles.files(root.resolve("out")).stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void whatAStepNeedsOfItsStageIsCheckedBeforeAnyWork() throws IOException {
        String minhash = """
                name: test
                logging_dir: $ROOT/logs
                tasks: 2
                stages:
                  - name: dedup
                    minhash: {input: $ROOT/in, output: $ROOT/deduped, work_dir: $ROOT/mh, bucket_tasks: 15}
                """;
        // before, every signature was computed and then all 15 bucket ranks failed
        String e = preflightError(minhash);
        assertTrue(e.contains("job.yaml:6: stages[0] (dedup).minhash: 'bucket_tasks' (15) must be a multiple of num_buckets"
                + " (14): each bucket gets bucket_tasks / num_buckets of the bucket ranks"), e);
        assertFalse(Files.exists(root.resolve("mh")), "nothing ran");

        e = preflightError(JobFixture.CLEAN_JOB.replace("      - read_jsonl: {path: $ROOT/in, glob: \"*.jsonl.gz\"}\n", ""));
        assertTrue(e.contains("(length_filter): has no documents to work on: put read_jsonl before it"), e);
    }

    @Test
    void stagesMadeFromAnEarlierRunOfTheStageTheyReadAreNotSkippedSilently() throws IOException {
        JobFixture fx = threeFilesOf8();
        String twoStages = JobFixture.TWO_STAGE_JOB;
        assertTrue(run(fx.job(twoStages)));
        assertEquals(18, TestFiles.allLines(root.resolve("sampled")).size());

        // the refusal of a changed stage names the folders of the stages reading its output too
        String changed = twoStages.replace("min_words: 5", "min_words: 12");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().endsWith("delete " + root.resolve("logs/clean") + " and " + root.resolve("logs/sample")
                + " (the stages that depend on it or read its output) to run again"), e.getMessage());

        // before, deleting only the changed stage's folder re-ran it, and 'sample' was skipped as complete:
        // its 18 documents stayed, some of them now dropped by the filter
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertEquals("stage(s) 'sample' have completed ranks made from the output of an earlier run ('sample' was made"
                + " from an earlier run of 'clean'); they would be skipped and their old outputs used with the new ones."
                + " Delete " + root.resolve("logs/sample") + " to run them again, or use a new logging_dir", e.getMessage());

        TestFiles.deleteRecursively(root.resolve("logs/sample"));
        assertTrue(run(fx.job(changed)));
        int kept = TestFiles.allLines(root.resolve("out")).size();
        assertTrue(kept < 18, "min_words 12 keeps fewer, got " + kept);
        assertEquals(kept, TestFiles.allLines(root.resolve("sampled")).size());
        assertTrue(run(fx.job(changed)), "and the same job again skips every rank");
        assertTrue(console.toString().contains("[sample] 3 rank(s) already complete, skipped"), console.toString());
    }

    /** datatrove's exclusion writer is a JsonlWriter, max_file_size included; it was an unknown key here. */
    @Test
    void anExclusionOutputRollsItsFilesAtMaxFileSize() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 1, 400); // every 4th document is too short: 100 dropped, some 2 KB of JSONL
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB.replace("exclusion_output: $ROOT/removed",
                "exclusion_output: {path: $ROOT/removed, max_file_size: 1K, compression: none}"))));
        List<String> names = TestFiles.files(root.resolve("removed")).stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.size() > 1 && names.stream().allMatch(n -> n.matches("\\d{3}_\\d{5}\\.jsonl")), names.toString());
        assertEquals(100, TestFiles.allLines(root.resolve("removed")).size());
    }

    @Test
    void aRankRunAgainRemovesTheFilesItNoLongerWrites() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 40);
        String rolling = JobFixture.CLEAN_JOB.replace("{path: $ROOT/out}", "{path: $ROOT/out, max_file_size: 1K}");
        assertTrue(run(fx.job(rolling)));
        int before = TestFiles.files(root.resolve("out")).size();
        // as the refusal of a changed stage advises: delete its folder in the logging dir and run again. Before,
        // every rank that now wrote fewer pieces (or nothing) left its old ones, and a later stage read them too.
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        assertTrue(run(fx.job(rolling.replace("min_words: 5", "min_words: 14"))));
        List<Path> after = TestFiles.files(root.resolve("out"));
        assertTrue(after.size() < before, before + " -> " + after.size());
        assertEquals(PipelineStats.read(root.resolve("logs/clean/stats.json")).step("write_jsonl").get("documents_written"),
                TestFiles.allLines(root.resolve("out")).size());
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        assertTrue(run(fx.job(rolling.replace("min_words: 5", "min_words: 1000"))));
        assertEquals(List.of(), TestFiles.files(root.resolve("out")));

        // the whole logging dir deleted: nothing says which files were this job's, so they stay, with a note
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(rolling)));
        TestFiles.deleteRecursively(root.resolve("logs"));
        console.reset();
        assertTrue(run(fx.job(rolling.replace("min_words: 5", "min_words: 1000"))));
        assertTrue(console.toString().contains("[clean] note: " + root.resolve("out") + " already holds " + before
                + " file(s) named as this stage names its files, from a run this logging dir has no record of"), console.toString());
    }

    /** Output moved away after its ranks completed: they are skipped, with a note; before, nothing was said. */
    @Test
    void documentsCompletedRanksWroteThatAreGoneAreNoted() throws IOException {
        JobFixture fx = threeFilesOf8();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        Files.move(root.resolve("out"), root.resolve("out-moved"));
        console.reset();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertTrue(console.toString().contains("[clean] note: 3 file(s) of documents its completed ranks wrote are gone ("
                + root.resolve("out/00000.jsonl.zst") + ", ...); those ranks are skipped as complete, and what reads the output"
                + " misses their documents. To write them again, delete " + root.resolve("logs/clean")), console.toString());
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertEquals(TestFiles.allLines(root.resolve("out-moved")), TestFiles.allLines(root.resolve("out")));
    }

    @Test
    void anOutputWhoseFilesWereDeletedIsNotAStageThatKeptNothing() throws IOException {
        JobFixture fx = threeFilesOf8();
        String twoStages = JobFixture.TWO_STAGE_JOB;
        assertTrue(new LocalExecutor(fx.job(twoStages), new PrintStream(console, true)).run("clean"));
        for (Path f : TestFiles.files(root.resolve("out"))) {
            Files.delete(f);
        }
        // before, 'sample' ran with no documents, "clean kept no documents", exit 0
        JobException e = assertThrows(JobException.class, () -> run(fx.job(twoStages)));
        assertTrue(e.getMessage().endsWith("no file in " + root.resolve("out")), e.getMessage());
    }

    @Test
    void aStageWhoseInputNowComesFromAnotherStageIsNotSkipped() throws IOException {
        JobFixture fx = threeFilesOf8();
        String twoStages = JobFixture.TWO_STAGE_JOB;
        assertTrue(run(fx.job(twoStages)));
        // before, a renamed (and changed) first stage ran anew while 'sample' was skipped as complete
        String renamed = twoStages.replace("- name: clean", "- name: clean2").replace("min_words: 5", "min_words: 12");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(renamed)));
        assertTrue(e.getMessage().contains("('sample' was made from 'clean' and now reads 'clean2')"), e.getMessage());
    }

    @Test
    void onlyStagesReadingAChangedStageAreHeldToIt() throws IOException {
        JobFixture fx = threeFilesOf8();
        // 'rawstats' comes after 'clean' but reads the input, not clean's output
        String job = JobFixture.CLEAN_JOB + """
                  - name: rawstats
                    steps:
                      - read_jsonl: {path: $ROOT/in, glob: "*.jsonl.gz"}
                      - doc_stats: {output: $ROOT/stats, groups: [summary]}
                """;
        assertTrue(run(fx.job(job)));
        String changed = job.replace("min_words: 5", "min_words: 12");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().endsWith("delete " + root.resolve("logs/clean") + " to run again"), e.getMessage());
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        console.reset();
        assertTrue(run(fx.job(changed)));
        assertTrue(console.toString().contains("[rawstats] 3 rank(s) already complete, skipped"), console.toString());

        // a stage whose ranks all ran again (skip_completed: false) is made from the stage's new run
        String twoStages = changed + JobFixture.SAMPLE_STAGE;
        assertTrue(run(fx.job(twoStages)));
        TestFiles.deleteRecursively(root.resolve("logs/clean"));
        assertTrue(run(fx.job(twoStages.replace("workers: 2", "workers: 2\nskip_completed: false"))));
        assertTrue(run(fx.job(twoStages)), "not refused: 'sample' ran again from the new 'clean'");
    }

    /**
     * A changed stage's earlier files go when the stage runs, not when another stage does: run --stage of the
     * stage after it, with skip_completed: false, removed the changed stage's completed output, its own input.
     */
    @Test
    void aChangedStageIsLeftAsItIsUntilItRuns() throws IOException {
        JobFixture fx = threeFilesOf8();
        String job = JobFixture.TWO_STAGE_JOB.replace("workers: 2", "workers: 2\nskip_completed: false");
        assertTrue(run(fx.job(job)));
        List<String> clean = TestFiles.allLines(root.resolve("out"));
        String changed = job.replace("min_words: 5", "min_words: 12");
        assertTrue(new LocalExecutor(fx.job(changed), new PrintStream(console, true)).run("sample"));
        assertEquals(clean, TestFiles.allLines(root.resolve("out")));
        assertEquals(3, Completions.completedRanks(root.resolve("logs/clean")).cardinality());
        console.reset();
        assertTrue(run(fx.job(changed)));
        assertTrue(console.toString().contains("[clean] removed 6 file(s) an earlier run of the stage wrote"), console.toString());
        assertTrue(TestFiles.allLines(root.resolve("out")).size() < clean.size());
    }

    /**
     * What a stage's files were made with is its own record, not job.json, which a run --stage rewrites: before,
     * the changed stage then ran again without a refusal (and the stage reading it kept its old output), and the
     * job as it first was, run again, was refused.
     */
    @Test
    void aStageIsHeldToWhatItsFilesWereMadeWith() throws IOException {
        JobFixture fx = threeFilesOf8();
        String job = JobFixture.TWO_STAGE_JOB;
        assertTrue(run(fx.job(job)));
        String changed = job.replace("min_words: 5", "min_words: 12");
        assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(new LocalExecutor(fx.job(changed.replace("workers: 2", "workers: 2\nskip_completed: false")),
                new PrintStream(console, true)).run("sample"));
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().startsWith("stage 'clean' has 3 completed rank(s) from a run with other settings (step 2 was"
                + " length_filter {\"exclusion_output\":\"" + root.resolve("removed") + "\",\"min_words\":5}"), e.getMessage());
        assertTrue(run(fx.job(job)), "the job its files were made with");

        // a logging dir an earlier version made (no record): job.json as it was says what changed
        for (String stage : new String[] {"clean", "sample"}) {
            Files.delete(root.resolve("logs").resolve(stage).resolve("settings"));
        }
        assertThrows(JobException.class, () -> run(fx.job(changed)));
        console.reset();
        assertTrue(run(fx.job(changed.replace("workers: 2", "workers: 2\nskip_completed: false"))));
        assertTrue(console.toString().contains("[clean] removed 6 file(s) an earlier run of the stage wrote"), console.toString());
    }

    /**
     * Cases a review found where a later stage kept output made from an earlier run of the stage it reads, or
     * a changed stage was not refused: markers deleted, job.json deleted, a folder of an earlier version whose
     * job.json a run of another stage replaced.
     */
    @Test
    void aStageReadingOutputThatWasRemovedIsNotSkippedAsComplete() throws IOException {
        JobFixture fx = threeFilesOf8();
        String job = JobFixture.TWO_STAGE_JOB;
        String changed = job.replace("min_words: 5", "min_words: 12");
        assertTrue(run(fx.job(job)));
        // clean's markers deleted, then changed: clean runs again, and sample, made from its old output, is refused
        TestFiles.deleteRecursively(root.resolve("logs/clean/completions"));
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().contains("'sample' was made from an earlier run of 'clean'"), e.getMessage());
        TestFiles.deleteRecursively(root.resolve("logs"));

        // a stage run again whole (skip_completed: false) with its settings as they were, from what may be new input:
        // the stage reading it was made from its earlier run (before, skipped as complete)
        assertTrue(run(fx.job(job)));
        assertTrue(new LocalExecutor(fx.job(job.replace("workers: 2", "workers: 2\nskip_completed: false")),
                new PrintStream(console, true)).run("clean"));
        e = assertThrows(JobException.class, () -> run(fx.job(job)));
        assertTrue(e.getMessage().contains("'sample' was made from an earlier run of 'clean'"), e.getMessage());
        TestFiles.deleteRecursively(root.resolve("logs"));

        // the same, killed after the stage was prepared and before its ranks ran: they are not left complete (before,
        // their old markers stood, and made_from.json said they were made from this run's input)
        assertTrue(run(fx.job(job)));
        StageRunner prepared = new StageRunner(fx.job(job.replace("workers: 2", "workers: 2\nskip_completed: false")),
                new PrintStream(console, true));
        prepared.writeJob();
        prepared.prepareStage(fx.job(job).stage("sample"));
        assertEquals(0, Completions.completedRanks(root.resolve("logs/sample")).cardinality());
        console.reset();
        assertTrue(run(fx.job(job)));
        assertTrue(console.toString().contains("[sample] done: 3 rank(s) run"), console.toString());
        TestFiles.deleteRecursively(root.resolve("logs"));

        // job.json deleted: the stage's own record still says it changed
        assertTrue(run(fx.job(job)));
        Files.delete(root.resolve("logs/job.json"));
        e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().startsWith("stage 'clean' has 3 completed rank(s) from a run with other settings"), e.getMessage());

        // a folder of an earlier version (no settings): job.json as it was is recorded before this run's replaces it
        TestFiles.deleteRecursively(root.resolve("logs"));
        assertTrue(run(fx.job(job)));
        for (String stage : new String[] {"clean", "sample"}) {
            Files.delete(root.resolve("logs").resolve(stage).resolve("settings"));
        }
        String sampleChanged = job.replace("compression: none}", "compression: gzip}");
        assertTrue(new LocalExecutor(fx.job(sampleChanged.replace("workers: 2", "workers: 2\nskip_completed: false")),
                new PrintStream(console, true)).run("clean"));
        e = assertThrows(JobException.class, () -> run(fx.job(sampleChanged)));
        assertTrue(e.getMessage().startsWith("stage 'sample' has 3 completed rank(s) from a run with other settings"), e.getMessage());
    }

    /** Two changed stages are both named at once; the second was met only after the first was fixed. */
    @Test
    void everyChangedStageIsNamedAtOnce() throws IOException {
        JobFixture fx = threeFilesOf8();
        String job = JobFixture.TWO_STAGE_JOB;
        assertTrue(run(fx.job(job)));
        String changed = job.replace("min_words: 5", "min_words: 12").replace("compression: none}", "compression: gzip}");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith("stage 'clean' has 3 completed rank(s) from a run with other settings"),
                e.getMessage());
        assertTrue(e.problems().get(1).startsWith("stage 'sample' has 3 completed rank(s) from a run with other settings"),
                e.getMessage());
    }

    /** A rank the stage no longer has (an earlier run had more tasks) is not counted in its stats.json. */
    @Test
    void ranksPastTheStagesTasksAreNotCounted() throws IOException {
        JobFixture fx = threeFilesOf8();
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        Object read = PipelineStats.read(root.resolve("logs/clean/stats.json")).step("read_jsonl").get("documents");
        Path stage = root.resolve("logs/clean");
        Files.copy(stage.resolve("stats/00000.json"), stage.resolve("stats/00007.json"));
        Files.createFile(stage.resolve("completions/00007"));
        Files.delete(stage.resolve("completions/00000"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        assertEquals(read, PipelineStats.read(stage.resolve("stats.json")).step("read_jsonl").get("documents"));
        assertFalse(Files.exists(stage.resolve("completions/00007")));
    }

    @Test
    void aStageChangedSinceItsRanksCompletedIsNotSkippedSilently() throws IOException {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 3, 4);
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)));
        String before = Files.readString(root.resolve("logs/job.json"));
        assertTrue(run(fx.job(JobFixture.CLEAN_JOB)), "the same job again: every rank skipped");

        // before, the ranks were skipped as complete (their outputs made with min_words 5) and job.json said 7
        String changed = JobFixture.CLEAN_JOB.replace("min_words: 5", "min_words: 7");
        JobException e = assertThrows(JobException.class, () -> run(fx.job(changed)));
        assertTrue(e.getMessage().startsWith("stage 'clean' has 3 completed rank(s) from a run with other settings (step 2 was"
                + " length_filter {\"exclusion_output\":\"" + root.resolve("removed") + "\",\"min_words\":5}, now length_filter"), e.getMessage());
        assertEquals(before, Files.readString(root.resolve("logs/job.json")), "job.json still says what was run");
        // every change is named, not only the first
        e = assertThrows(JobException.class, () -> run(fx.job(changed.replace("{path: $ROOT/out}", "{path: $ROOT/out, compression: zstd}"))));
        assertTrue(e.getMessage().contains("now length_filter") && e.getMessage().contains("; step 3 was write_jsonl"), e.getMessage());
    }
}
