package io.sluice.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        assertEquals("job.yaml: stages[0] (dedup).minhash: 'cluster' sets 'num_buckets', which is a key of the minhash:"
                + " block; give it there, once for all its stages", twice.getMessage());
        JobException own = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, buckets: {output: elsewhere}}
                """));
        assertEquals("job.yaml: stages[0] (dedup).minhash: 'buckets' sets 'output', which the minhash: block sets itself",
                own.getMessage());
        JobException misspelt = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, buckets: {memroy_limit: 1G}}
                """));
        assertEquals(true, misspelt.getMessage().contains("(minhash_buckets): unknown key 'memroy_limit' (did you mean"
                + " 'memory_limit'?)"), misspelt.getMessage());
    }

    @Test
    void unknownKeysInTheBlockAreNamed() {
        JobException e = assertThrows(JobException.class, () -> load("""
                stages:
                  - name: dedup
                    minhash: {input: in, output: out, work_dir: w, n_gram: 3}
                """));
        assertEquals(true, e.getMessage().startsWith("job.yaml: stages[0] (dedup).minhash: unknown key 'n_gram' (did you mean 'n_grams'?); allowed: "),
                e.getMessage());
    }
}
