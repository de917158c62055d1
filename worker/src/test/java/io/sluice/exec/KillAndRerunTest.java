package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.io.TestFiles;
import io.sluice.job.Job;
import io.sluice.job.JobFile;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM killed with SIGKILL at random moments, then run again, must leave exactly the files an
 * uninterrupted run leaves, and never a partial file under a final name.
 */
class KillAndRerunTest {
    @TempDir
    Path root;

    private static final String JOB = """
            name: killtest
            logging_dir: $ROOT/logs
            tasks: 4
            stages:
              - name: clean
                steps:
                  - read_jsonl: {path: $ROOT/in, glob: "*.jsonl.gz"}
                  - length_filter: {min_words: 5, exclusion_output: $ROOT/removed}
                  - sampler: {rate: 0.7, seed: 1}
                  - write_jsonl: {path: $ROOT/out, max_file_size: 300000}
            """;

    private Process startWorker(Path jobJson) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--add-modules", "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName(), "--job", jobJson.toString(), "--stage", "clean",
                "--first-rank", "0", "--ranks", "4", "--workers", "2"));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(root.resolve("worker-" + System.nanoTime() + ".out").toFile()).start();
    }

    /**
     * Kills the worker (SIGKILL) {@code delayMs} after it started or, when {@code base} is given, after
     * its first file appeared under {@code base/out} or {@code base/removed}; false when it exited first.
     */
    private static boolean killAfter(Process p, Path base, long delayMs) throws Exception {
        long from = base == null ? System.nanoTime() : -1;
        while (p.isAlive()) {
            if (from < 0 && (hasFile(base.resolve("out")) || hasFile(base.resolve("removed")))) {
                from = System.nanoTime();
            }
            if (from >= 0 && System.nanoTime() - from >= delayMs * 1_000_000) {
                p.destroyForcibly();
                p.waitFor();
                return true;
            }
            Thread.sleep(2);
        }
        return false;
    }

    private static boolean hasFile(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.findAny().isPresent();
        }
    }

    /** Every output file under its final name must decompress completely. */
    private void assertNoPartialFiles(Path dir) throws IOException {
        for (Path f : TestFiles.files(dir)) {
            if (!f.toString().endsWith(".tmp")) {
                TestFiles.lines(f); // throws on a truncated stream
            }
        }
    }

    private Map<String, String> outputs(Path base) throws IOException {
        Map<String, String> all = new TreeMap<>();
        for (String d : List.of("out", "removed", "logs/clean/completions")) {
            TestFiles.hashes(base.resolve(d)).forEach((k, v) -> all.put(d + "/" + k, v));
        }
        return all;
    }

    @Test
    void killedAtAnyMomentThenRerunGivesIdenticalFiles() throws Exception {
        JobFixture fx = new JobFixture(root);
        fx.corpus("in", 8, 4000);

        Path ref = root.resolve("ref");
        Job refJob = JobFile.parse("job.yaml", new org.yaml.snakeyaml.Yaml().load(JOB.replace("$ROOT/in", root.resolve("in").toString())
                .replace("$ROOT", ref.toString())), JobFile.SlurmCheck.NONE);
        assertTrue(new LocalExecutor(refJob, new java.io.PrintStream(java.io.OutputStream.nullOutputStream())).run(null));
        Map<String, String> expected = outputs(ref);
        assertEquals(4, expected.keySet().stream().filter(k -> k.startsWith("logs/clean/completions/")).count());

        Path run = root.resolve("run");
        Job job = JobFile.parse("job.yaml", new org.yaml.snakeyaml.Yaml().load(JOB.replace("$ROOT/in", root.resolve("in").toString())
                .replace("$ROOT", run.toString())), JobFile.SlurmCheck.NONE);
        Files.createDirectories(job.loggingDir());
        Path jobJson = job.loggingDir().resolve("job.json");
        JobFile.writeResolved(job, jobJson);

        // Kill moments: the first worker as soon as its first output file appears (so at least one kill
        // lands mid-write however fast the machine), later ones at random times after the first output or
        // after start (which may be before any output). A fixed delay from start alone let a fast worker
        // finish before it, and the test then failed for want of a kill.
        Random random = new Random(42);
        int kills = 0;
        for (int attempt = 0; attempt < 12; attempt++) {
            Process p = startWorker(jobJson);
            boolean afterOutput = attempt == 0 || random.nextBoolean();
            long delay = attempt == 0 ? 0 : afterOutput ? random.nextInt(400) : 50 + random.nextInt(1200);
            if (killAfter(p, afterOutput ? run : null, delay)) {
                kills++;
                assertNoPartialFiles(run.resolve("out"));
                assertNoPartialFiles(run.resolve("removed"));
            } else {
                assertEquals(0, p.exitValue(), "worker failed, see " + root);
                break;
            }
        }
        Process last = startWorker(jobJson);
        assertTrue(last.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, last.exitValue());
        assertTrue(kills >= 1, "the test must kill at least one worker");
        Map<String, String> got = outputs(run);
        assertEquals(expected, got);
        // nor any temporary file of a rank's own (stats.json and shard_plan.json, written by several
        // processes at once, have per-process temporary names that a kill may leave)
        for (String d : List.of("out", "removed", "logs/clean/completions", "logs/clean/stats")) {
            File[] tmp = run.resolve(d).toFile().listFiles((dir, n) -> n.endsWith(".tmp"));
            assertTrue(tmp == null || tmp.length == 0, "a completed run leaves no temporary file in " + d);
        }
    }
}
