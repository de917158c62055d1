package io.sluice.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinhashBlockTest {
    @TempDir
    Path dir;

    private Job load(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return JobFile.load(f);
    }

    /** The message a job file with problems is refused with. */
    private String refusal(String yaml) {
        return assertThrows(JobException.class, () -> load(yaml)).getMessage();
    }

    /** Two blocks with one work_dir: the second one's signature ranks overwrote the first one's files, and validate passed. */
    @Test
    void twoBlocksWithOneWorkDirAreRefused() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\": \"x\"}\n");
        Job job = load("""
                logging_dir: ROOT/logs
                stages:
                  - name: one
                    minhash: {input: ROOT/in, output: ROOT/out1, work_dir: ROOT/work}
                  - name: two
                    minhash: {input: ROOT/in, output: ROOT/out2, work_dir: ROOT/work}
                """.replace("ROOT", dir.toString()));
        assertEquals("job.yaml:6: stages[1] (two).minhash (minhash_signature): writes signatures to " + dir.resolve("work/signatures")
                + ", as stages[0] (one).minhash (minhash_signature) at line 4 does, so one would overwrite the other's files;"
                + " give each its own output (a minhash: block its own work_dir)",
                assertThrows(JobException.class, () -> Preflight.check(job)).getMessage());
    }

    @Test
    void expandsIntoFourChainedStages() throws IOException {
        Job job = load("""
                tasks: 3
                stages:
                  - name: dedup
                    minhash:
                      input: {path: in, glob: "*.zst"}
                      output: out
                      work_dir: work
                      num_buckets: 7
                      keep: longest
                      cluster_metadata: true
                      exclusion_output: dups
                """);
        assertEquals(List.of("dedup_signatures", "dedup_buckets", "dedup_cluster", "dedup_filter"),
                job.stages().stream().map(Job.Stage::name).toList());
        assertEquals(List.of(3, 7, 1, 3), job.stages().stream().map(Job.Stage::tasks).toList());
        assertEquals(List.of("dedup_cluster"), job.stage("dedup_filter").depends());
        Job.Stage filter = job.stage("dedup_filter");
        assertEquals(List.of("read_jsonl", "minhash_filter", "write_jsonl"), filter.steps().stream().map(Job.StepSpec::type).toList());
        assertEquals("dups", filter.steps().get(1).args().get("exclusion_output"));
        assertEquals("work/signatures", job.stage("dedup_cluster").steps().get(0).args().get("signatures"));
        assertEquals(7, job.stage("dedup_buckets").steps().get(0).args().get("num_buckets"));
    }

    @Test
    void aStepOfTheBlockTakesMoreKeysUnderItsName() throws IOException {
        Job job = load("""
                stages:
                  - name: dedup
                    minhash:
                      input: in
                      output: out
                      work_dir: work
                      signature: {memory_limit: 64M}
                      buckets: {memory_limit: 32M}
                      cluster: {threads: 2}
                """);
        assertEquals("64M", job.stage("dedup_signatures").steps().get(1).args().get("memory_limit"));
        assertEquals("32M", job.stage("dedup_buckets").steps().get(0).args().get("memory_limit"));
        assertEquals(2, job.stage("dedup_cluster").steps().get(0).args().get("threads"));

        JobException twice = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, cluster: {num_buckets: 7}}
                """));
        assertEquals("job.yaml:3: stages[0] (dedup).minhash: 'cluster' sets 'num_buckets', which is a key of the minhash:"
                + " block; give it there, once for all its stages", twice.getMessage());
        JobException own = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, buckets: {output: elsewhere}}
                """));
        assertEquals("job.yaml:3: stages[0] (dedup).minhash: 'buckets' sets 'output', which the minhash: block sets itself",
                own.getMessage());
        JobException misspelt = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, buckets: {memroy_limit: 1G}}
                """));
        assertEquals(true, misspelt.getMessage().contains("(minhash_buckets): unknown key 'memroy_limit' (did you mean"
                + " 'memory_limit'?)"), misspelt.getMessage());
        // the line of the key under the block's buckets:, not of the block's input: or output:, which the step is not given
        JobException lines = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash:
                      input: in
                      output: out
                      work_dir: w
                      buckets:
                        memroy_limit: 1G
                      cluster: {threads: -3}
                """));
        assertEquals(true, lines.getMessage().contains("job.yaml:8: stages[0] (dedup).minhash (minhash_buckets): unknown key"
                + " 'memroy_limit'"), lines.getMessage());
        assertEquals(true, lines.getMessage().contains("job.yaml:9: stages[0] (dedup).minhash (minhash_cluster): 'threads'"),
                lines.getMessage());
    }

    /** Before, only the block's first problem was told, and a later stage's with it: a round of validate each. */
    @Test
    void theBlocksProblemsAreToldWithTheJobsOthers() {
        String message = refusal("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, num_buckets: 0, keep: shortest, n_gram: 3}
                  - name: after
                    steps: [{read_jsonl: {path: out}}, {length_filter: {min_wrds: 3}}]
                """);
        List<String> lines = message.lines().toList();
        assertEquals(List.of("4 problems:",
                "  job.yaml:3: stages[0] (dedup).minhash: 'num_buckets' must be a positive integer, got 0",
                "  job.yaml:3: stages[0] (dedup).minhash: 'keep' must be one of datatrove, first, longest, got 'shortest'"),
                lines.subList(0, 3), message);
        assertEquals(true, lines.get(3).startsWith("  job.yaml:3: stages[0] (dedup).minhash: unknown key 'n_gram' (did you mean"
                + " 'n_grams'?); allowed: input, output, work_dir, "), message);
        assertEquals(true, lines.get(4).startsWith("  job.yaml:5: stages[1] (after).steps[1] (length_filter): unknown key"
                + " 'min_wrds' (did you mean 'min_words'?)"), message);

        // a missing key after the unknown one, which is often it misspelt; each of a step's keys the block sets
        message = refusal("""
                stages:
                  - name: dedup
                    minhash: {data_folder: in, output: out, work_dir: w, cluster: {seed: 1, keep: first}}
                """);
        lines = message.lines().toList();
        assertEquals(5, lines.size(), message);
        assertEquals(true, lines.get(1).startsWith("  job.yaml:3: stages[0] (dedup).minhash: unknown key 'data_folder'"), message);
        assertEquals(List.of(
                "  job.yaml:3: stages[0] (dedup).minhash: 'input' is required: the input folder, or read_jsonl arguments such as"
                        + " {path: ..., glob: ...}",
                "  job.yaml:3: stages[0] (dedup).minhash: 'cluster' sets 'seed', which is a key of the minhash: block; give it"
                        + " there, once for all its stages",
                "  job.yaml:3: stages[0] (dedup).minhash: 'cluster' sets 'keep', which is a key of the minhash: block; give it"
                        + " there, once for all its stages"), lines.subList(2, 5), message);
    }

    /** Steps after the filter run on the kept documents before the writer, as FineWeb's PIIFormatter. */
    @Test
    void stepsAfterTheFilterRunBeforeTheWriter() throws Exception {
        Job job = load("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, after_filter: [{pii_formatter: {remove_ips: false}}, {length_filter: {min_words: 5}}]}
                """);
        assertEquals(List.of("read_jsonl", "minhash_filter", "pii_formatter", "length_filter", "write_jsonl"),
                job.stage("d_filter").steps().stream().map(Job.StepSpec::type).toList());
        String message = refusal("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, after_filter: [{pii_formater: {}}]}
                """);
        assertTrue(message.startsWith("job.yaml:3: stages[0] (d).minhash.after_filter[0] (pii_formater): unknown step"
                + " 'pii_formater' (did you mean 'pii_formatter'?)"), message);
        message = refusal("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, after_filter: [{minhash_filter: {input: w/clusters}}]}
                """);
        assertEquals("job.yaml:3: stages[0] (d).minhash.after_filter[0] (minhash_filter): the block runs the MinHash steps"
                + " itself; after_filter is for steps on the documents it keeps", message);
    }

    /** A bad MinHash key of the block is told once, not once for each of the three steps that take it. */
    @Test
    void aBadMinhashKeyIsToldOnce() {
        String message = refusal("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, n_grams: x}
                """);
        assertEquals("job.yaml:3: stages[0] (d).minhash: 'n_grams' must be an integer, got 'x'", message);
    }

    /** bucket_tasks not a multiple of num_buckets is told at its own line, once (it was told of the block's line). */
    @Test
    void bucketTasksNotAMultipleOfTheBucketsIsToldAtItsLine() {
        String message = refusal("""
                stages:
                  - name: d
                    minhash:
                      input: in
                      output: out
                      work_dir: w
                      num_buckets: 4
                      bucket_tasks: 6
                """);
        assertEquals("job.yaml:8: stages[0] (d).minhash: 'bucket_tasks' (6) must be a multiple of num_buckets (4): each"
                + " bucket gets bucket_tasks / num_buckets of the bucket ranks", message);
    }

    /** A stage waiting for a block with problems by its last stage's name is not told a second time. */
    @Test
    void aBlockWithProblemsIsNotAlsoAMissingDependency() {
        String message = refusal("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, keep: bogus}
                  - name: stats
                    depends: d_filter
                    steps: [{read_jsonl: {path: out}}]
                """);
        assertEquals("job.yaml:3: stages[0] (d).minhash: 'keep' must be one of datatrove, first, longest, got 'bogus'", message);
    }

    /** A list of folders was read as the folder "[a, b]", and a boolean as "true". */
    @Test
    void aListOrABooleanIsNoFolder() {
        String message = refusal("""
                stages:
                  - name: dedup
                    minhash: {input: [a, b], output: [c], work_dir: true}
                """);
        assertEquals(List.of("3 problems:",
                "  job.yaml:3: stages[0] (dedup).minhash: 'input' must be one folder, or read_jsonl arguments such as"
                        + " {path: ..., glob: ...}; got a list",
                "  job.yaml:3: stages[0] (dedup).minhash: 'output' must be one folder, or write_jsonl arguments such as"
                        + " {path: ..., compression: ...}; got a list",
                "  job.yaml:3: stages[0] (dedup).minhash: 'work_dir' must be a string, got the boolean true (YAML reads unquoted"
                        + " yes, no, on, off, true and false as booleans: quote the word, e.g. \"no\")"),
                message.lines().toList(), message);
    }

    @Test
    void unknownKeysInTheBlockAreNamed() {
        String message = refusal("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, n_gram: 3}
                """);
        assertEquals(true, message.startsWith("job.yaml:3: stages[0] (dedup).minhash: unknown key 'n_gram' (did you mean 'n_grams'?); allowed: "),
                message);
    }

    /** A block with a problem of its own still has its after_filter steps checked, in the same round. */
    @Test
    void afterFilterStepsAreCheckedWhenTheBlockHasAProblem() {
        String msg = refusal("""
                stages:
                  - name: d
                    minhash: {input: in, output: out, work_dir: w, use_64bit_hashes: true, after_filter: [{PIIFormatter: {}}]}
                """);
        assertTrue(msg.contains("unknown key 'use_64bit_hashes'"), msg);
        assertTrue(msg.contains("after_filter[0] (PIIFormatter): unknown step 'PIIFormatter' (datatrove's name; here it is"
                + " 'pii_formatter')"), msg);
    }

    /**
     * A block with a problem of its own still has the mappings inside it checked by the steps they go to
     * (input, output, exclusion_output, the per-stage keys), in the same round, each problem told once.
     */
    @Test
    void theBlocksMappingsAreCheckedWhenTheBlockHasAProblem() {
        String msg = refusal("""
                stages:
                  - name: d
                    minhash:
                      input: {path: in, globb: "*.zst"}
                      output: {path: out, compresion: gzip}
                      exclusion_output: {path: removed, compresion: gzip}
                      work_dir: w
                      n_gram: 3
                      seed: x
                      buckets: {memory_limt: 1G}
                      cluster: {thread: 2}
                """);
        List<String> told = msg.lines().skip(1).map(String::strip).toList();
        assertEquals(7, told.size(), msg);
        assertTrue(told.get(0).startsWith("job.yaml:9: stages[0] (d).minhash: 'seed' must be an integer"), msg);
        assertTrue(told.get(1).startsWith("job.yaml:8: stages[0] (d).minhash: unknown key 'n_gram' (did you mean 'n_grams'?)"), msg);
        for (String key : List.of("globb", "compresion", "memory_limt", "thread")) {
            assertTrue(told.stream().anyMatch(t -> t.contains("unknown key '" + key + "'")), key + ": " + msg);
        }
        assertEquals(2, told.stream().filter(t -> t.contains("unknown key 'compresion'")).count(), "output and exclusion_output: " + msg);
    }

    /** The block's input is read by its first and last stages: a problem in it is told once, named as the input. */
    @Test
    void aProblemOfTheBlocksInputIsToldOnce() {
        String msg = refusal("""
                stages:
                  - name: d
                    minhash: {input: {path: in, globb: "*.zst"}, output: out, work_dir: w}
                """);
        assertTrue(msg.startsWith("job.yaml:3: stages[0] (d).minhash.input (read_jsonl): unknown key 'globb' (did you mean 'glob'?)"), msg);
        assertTrue(!msg.contains("problems"), "one problem, not the same one twice: " + msg);
    }
}
