package io.sluice.launcher;

import io.sluice.io.Completions;
import io.sluice.job.Job;
import io.sluice.job.JobFile;
import io.sluice.launcher.slurm.ArrayTaskState;
import io.sluice.launcher.slurm.ShellQuote;
import io.sluice.launcher.slurm.SlurmCommands;
import io.sluice.launcher.slurm.StageFiles;
import io.sluice.launcher.slurm.StatusReport;
import io.sluice.launcher.slurm.WorkerCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code launcher submit / status / cancel} against a real Slurm: the dev cluster of
 * {@code slurm/dev-cluster.sh start 2}, with {@code SLURM_CONF} exported. Compute nodes run the
 * worker from this test JVM's class path, so these tests see the code as built.
 */
@Tag("slurm")
class SlurmClusterTest {
    /** A one-rank stage that copies the example corpus: the smallest job that exercises a real array element. */
    private static final String ONE_RANK_COPY = """
              - name: clean
                tasks: 1
                steps:
                  - read_jsonl: {path: %IN%, glob: "*.jsonl.gz"}
                  - write_jsonl: {path: %OUT%/clean}
            """;


    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final SlurmCommands SLURM = new SlurmCommands();

    @TempDir
    Path tmp;

    private final List<Path> submitted = new ArrayList<>();

    @BeforeAll
    static void clusterIsUp() throws Exception {
        Process p = new ProcessBuilder("sinfo", "-h", "-o", "%T").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("no Slurm cluster answers (" + out.strip() + "); start one with `slurm/dev-cluster.sh start 2` and "
                    + "`eval \"$(slurm/dev-cluster.sh env)\"`");
        }
    }

    @AfterEach
    void cancelWhatIsLeft() {
        for (Path jobFile : submitted) {
            Launcher.execute("cancel", jobFile.toString());
        }
    }

    private static Path examples() {
        return Path.of(System.getProperty("sluice.root", ".")).resolve("examples/data").toAbsolutePath();
    }

    /** A job file; {@code %IN%} and {@code %OUT%/sub} become quoted paths, the logging dir is {@code out/logs}. */
    private Path jobFile(String name, Path in, Path out, String stages, String slurm) throws IOException {
        String text = "name: " + name + "\nlogging_dir: %OUT%/logs\ntasks: 4\nworkers: 2\nstages:\n" + stages
                + "slurm:\n  cpus_per_task: 1\n  mem_per_cpu: 700M\n  array_parallelism: 4\n" + slurm;
        String yaml = Pattern.compile("%OUT%/(\\w+)").matcher(text.replace("%IN%", yamlQuote(in)))
                .replaceAll(m -> Matcher.quoteReplacement(yamlQuote(out.resolve(m.group(1)))));
        Path f = tmp.resolve(name + "-" + out.getFileName() + ".yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static String yamlQuote(Path p) {
        return "'" + p.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    private record Result(int exit, String out) {
    }

    private Result launcher(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Launcher.execute(args);
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        saved.print(out);
        return new Result(exit, out);
    }

    private Result submit(Path jobFile) {
        submitted.add(jobFile);
        Result r = launcher("submit", jobFile.toString());
        assertEquals(0, r.exit(), r.out());
        return r;
    }

    private static List<String> jobIds(Job job) {
        List<String> ids = new ArrayList<>();
        for (Job.Stage s : job.stages()) {
            StageFiles.of(job, s).readJobIds().ifPresent(j -> ids.addAll(j.ids()));
        }
        return ids;
    }

    /** Waits until an element of the job's Slurm jobs satisfies {@code condition}; fails after {@link #TIMEOUT}. */
    private static void await(Job job, String what, Predicate<List<ArrayTaskState>> condition) throws InterruptedException {
        Instant end = Instant.now().plus(TIMEOUT);
        List<ArrayTaskState> states = List.of();
        while (Instant.now().isBefore(end)) {
            states = SLURM.queue(jobIds(job));
            if (condition.test(states)) {
                return;
            }
            Thread.sleep(500);
        }
        fail("timed out waiting until " + what + "; squeue: " + states);
    }

    private static void awaitAllEnded(Job job) throws InterruptedException {
        await(job, "every Slurm job ended", s -> !s.isEmpty() && s.stream().allMatch(ArrayTaskState::ended));
    }

    /** Every file below {@code dir}, by relative path. */
    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(f).toString(), Files.readAllBytes(f));
            }
        }
        return files;
    }

    private static final String TWO_STAGES = """
              - name: clean
                steps:
                  - read_jsonl: {path: %IN%, glob: "*.jsonl.gz"}
                  - length_filter: {min_words: 20}
                  - write_jsonl: {path: %OUT%/clean, compression: zstd}
              - name: again
                tasks: 2
                steps:
                  - read_jsonl: {path: %OUT%/clean}
                  - regex_filter: {regex: "(?i)click here"}
                  - write_jsonl: {path: %OUT%/again}
            """;

    @Test
    void submittedJobWritesTheSameBytesAsALocalRun() throws Exception {
        Path local = tmp.resolve("local");
        assertEquals(0, launcher("run", jobFile("same", examples(), local, TWO_STAGES, "").toString()).exit());

        // a logging dir with a space and a quote: it reaches the script, sbatch and the worker
        Path onSlurm = tmp.resolve("on slurm 'q'");
        Path jobFile = jobFile("same", examples(), onSlurm, TWO_STAGES, "  local_tasks: 2\n");
        Result r = submit(jobFile);
        assertTrue(r.out().contains("stage clean: 4 of 4 ranks to run, 2 array elements of 2 ranks"), r.out());
        Job job = JobFile.load(jobFile);
        // the ranks run the jars as submitted, copied into the logging dir, not the build tree's
        String script = Files.readString(StageFiles.of(job, job.stages().getFirst()).script());
        assertTrue(script.contains(job.loggingDir().resolve("builds").toString().replace("'", "'\\''") + "/"), script);
        assertTrue(r.out().contains("worker build: " + job.loggingDir().resolve("builds")), r.out());
        awaitAllEnded(job);

        Result status = launcher("status", jobFile.toString());
        assertEquals(0, status.exit(), status.out());
        for (Job.Stage stage : job.stages()) {
            String statsJob = StageFiles.of(job, stage).readJobIds().orElseThrow().statsJobId();
            assertEquals(List.of("COMPLETED"), SLURM.queue(List.of(statsJob)).stream().map(ArrayTaskState::state).toList());
            assertTrue(Files.exists(job.stageDir(stage).resolve("stats.json")));
        }
        for (String dir : List.of("clean", "again")) {
            Map<String, byte[]> expected = files(local.resolve(dir));
            Map<String, byte[]> actual = files(onSlurm.resolve(dir));
            assertEquals(expected.keySet(), actual.keySet());
            assertTrue(expected.size() >= 2);
            expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), dir + "/" + name));
        }
    }

    /** submit --stage, stage by stage, as a user looking at each stage's output before going on. */
    @Test
    void stagesSubmittedOneByOneWriteWhatTheWholeJobWrites() throws Exception {
        Path local = tmp.resolve("local-by-stage");
        assertEquals(0, launcher("run", jobFile("bystage", examples(), local, TWO_STAGES, "").toString()).exit());
        Path onSlurm = tmp.resolve("by-stage");
        Path jobFile = jobFile("bystage", examples(), onSlurm, TWO_STAGES, "");
        submitted.add(jobFile);
        Job job = JobFile.load(jobFile);
        assertEquals(2, launcher("submit", jobFile.toString(), "--stage", "again").exit(), "clean has not run");
        Result first = launcher("submit", jobFile.toString(), "--stage", "clean");
        assertEquals(0, first.exit(), first.out());
        assertTrue(first.out().contains("stage clean: 4 of 4 ranks to run") && !first.out().contains("stage again"), first.out());
        awaitAllEnded(job);
        Result second = launcher("submit", jobFile.toString(), "--stage", "again");
        assertEquals(0, second.exit(), second.out());
        assertTrue(second.out().contains("stage again: 2 of 2 ranks to run") && !second.out().contains("(after"), second.out());
        awaitAllEnded(job);
        for (String dir : List.of("clean", "again")) {
            Map<String, byte[]> expected = files(local.resolve(dir));
            Map<String, byte[]> actual = files(onSlurm.resolve(dir));
            assertEquals(expected.keySet(), actual.keySet());
            expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), dir + "/" + name));
        }
    }

    @Test
    void aFailedRankCancelsTheMergeAndAResubmitRunsOnlyThatRankThenTheMerge() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        try (Stream<Path> parts = Files.list(examples())) {
            for (Path p : parts.toList()) {
                Files.copy(p, in.resolve(p.getFileName()));
            }
        }
        // rank 4 of 5 gets part-4 (whole files go round-robin in sorted order): a cut-off gzip stream
        byte[] good = Files.readAllBytes(in.resolve("part-0.jsonl.gz"));
        Files.write(in.resolve("part-4.jsonl.gz"), Arrays.copyOf(good, good.length / 2));
        Path out = tmp.resolve("out");
        String stages = """
                  - name: clean
                    tasks: 5
                    steps:
                      - read_jsonl: {path: %IN%, glob: "*.jsonl.gz"}
                      - write_jsonl: {path: %OUT%/clean}
                  - name: merge
                    tasks: 1
                    steps:
                      - read_jsonl: {path: %OUT%/clean}
                      - write_jsonl: {path: %OUT%/merged}
                """;
        Path jobFile = jobFile("fails", in, out, stages, "  local_tasks: 1\n");
        Job job = JobFile.load(jobFile);
        submit(jobFile);
        awaitAllEnded(job);

        List<StatusReport.StageStatus> status = StatusReport.collect(job, SLURM);
        assertEquals(4, status.get(0).done());
        assertEquals(List.of(4), status.get(0).failed().stream().map(StatusReport.FailedRank::rank).toList());
        StatusReport.FailedRank bad = status.get(0).failed().getFirst();
        assertTrue(bad.state().startsWith("FAILED"), bad.state());
        assertTrue(String.join("\n", bad.logTail()).contains("part-4.jsonl.gz"), String.join("\n", bad.logTail()));
        assertTrue(bad.slurmTail().contains("sluice: the worker exited with status 1"), String.join("\n", bad.slurmTail()));
        assertEquals(List.of(0, 1), List.of(status.get(1).failed().size(), status.get(1).cancelled()),
                "kill-on-invalid-dep cancelled the merge");
        Result shown = launcher("status", jobFile.toString());
        assertEquals(1, shown.exit());
        assertTrue(shown.out().contains("stage clean rank 4 failed: Slurm job " + bad.element() + " FAILED"), shown.out());
        assertTrue(shown.out().contains("stage merge: 1 rank ended before it started: cancelled, by launcher cancel or scancel,"
                + " or by Slurm when a job it waited for failed (DependencyNeverSatisfied)"), shown.out());
        assertTrue(shown.out().contains("part-4.jsonl.gz"), shown.out());

        Files.write(in.resolve("part-4.jsonl.gz"), good);
        Result again = submit(jobFile);
        assertTrue(again.out().contains("stage clean: 1 of 5 ranks to run, 1 array element of 1 rank"), again.out());
        assertTrue(again.out().contains("stage merge: 1 of 1 ranks to run"), again.out());
        assertEquals(List.of(4), StageFiles.of(job, job.stage("clean")).readRanksToRun().orElseThrow().ranks());
        awaitAllEnded(job);
        assertEquals(0, launcher("status", jobFile.toString()).exit());
        assertTrue(Files.isDirectory(out.resolve("merged")));
    }

    @Test
    void statusSaysWhyRanksWait() throws Exception {
        Path out = tmp.resolve("out");
        // every element sleeps first, so the second stage is still waiting for the first when status looks
        Path jobFile = jobFile("waits", examples(), out, TWO_STAGES, "  local_tasks: 2\n  env_command: sleep 8\n");
        Job job = JobFile.load(jobFile);
        submit(jobFile);
        String again = StageFiles.of(job, job.stage("again")).readJobIds().orElseThrow().ids().getFirst();
        await(job, "stage again pending on its dependency",
                s -> s.stream().anyMatch(t -> t.key().jobId().equals(again) && t.reason().equals("Dependency")));
        Result shown = launcher("status", jobFile.toString());
        assertEquals(1, shown.exit(), shown.out());
        assertTrue(shown.out().contains("stage again: 2 ranks pending: Dependency (waits for the jobs it depends on: earlier"
                + " stages, or an earlier part of its array)"),
                shown.out());
        // a dry run refuses what a submit would: the same ranks queued twice
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Result dry;
        try {
            dry = launcher("submit", jobFile.toString(), "--dry-run");
        } finally {
            System.setErr(savedErr);
        }
        assertEquals(1, dry.exit(), dry.out() + err);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("job 'waits' still has Slurm jobs queued or running: "), err.toString());
        assertTrue(!dry.out().contains("--- "), "no scripts printed: " + dry.out());
    }

    @Test
    void afterScancelOfOneRunningElementASubmitRunsOnlyTheMissingRank() throws Exception {
        Path out = tmp.resolve("out");
        String stages = """
                  - name: clean
                    steps:
                      - read_jsonl: {path: %IN%, glob: "*.jsonl.gz"}
                      - write_jsonl: {path: %OUT%/clean}
                """;
        // env_command keeps each element running long enough to be cancelled while it runs (4 s was too short once
        // in CI, on a loaded machine: the element finished before the scancel reached it)
        Path jobFile = jobFile("cancel", examples(), out, stages, "  local_tasks: 1\n  env_command: sleep 10\n");
        Job job = JobFile.load(jobFile);
        submit(jobFile);
        String id = jobIds(job).getFirst();
        ArrayTaskState.Key element = new ArrayTaskState.Key(id, 1);
        await(job, element + " running", s -> s.stream().anyMatch(t -> t.key().equals(element) && t.running()));
        SLURM.cancel(List.of(element.toString()));
        awaitAllEnded(job);

        Path stageDir = job.stageDir(job.stage("clean"));
        List<StatusReport.StageStatus> status = StatusReport.collect(job, SLURM);
        assertEquals(3, status.getFirst().done());
        // cancelled in its env_command, before the worker started the rank: cancelled, not failed
        assertEquals(List.of(0, 1), List.of(status.getFirst().failed().size(), status.getFirst().cancelled()));
        Map<Integer, FileTime> markers = new TreeMap<>();
        for (int r : new int[] {0, 2, 3}) {
            markers.put(r, Files.getLastModifiedTime(Completions.marker(stageDir, r)));
        }

        Result again = submit(jobFile);
        assertTrue(again.out().contains("stage clean: 1 of 4 ranks to run"), again.out());
        assertEquals(List.of(1), StageFiles.of(job, job.stage("clean")).readRanksToRun().orElseThrow().ranks());
        awaitAllEnded(job);
        assertTrue(Completions.isComplete(stageDir, 1));
        for (var e : markers.entrySet()) {
            assertEquals(e.getValue(), Files.getLastModifiedTime(Completions.marker(stageDir, e.getKey())),
                    "rank " + e.getKey() + " ran again");
        }
    }

    @Test
    void usr1BeforeTheTimeLimitRequeuesTheElementWhichThenCompletes() throws Exception {
        Path out = tmp.resolve("out");
        Path jobFile = jobFile("requeue", examples(), out, ONE_RANK_COPY, "  requeue: true\n  env_command: sleep 4\n");
        Job job = JobFile.load(jobFile);
        submit(jobFile);
        ArrayTaskState.Key element = new ArrayTaskState.Key(jobIds(job).getFirst(), 0);
        Path slurmLog = StageFiles.of(job, job.stage("clean")).slurmLog(element);
        // the script prints its first line after setting the trap (Slurm signals near the time limit, long after)
        await(job, element + " past its trap", s -> slurmLogSays(slurmLog, "sluice: stage clean"));
        // what --signal=B:USR1@<grace> does before the time limit
        assertEquals(0, command("scancel", "--batch", "--signal=USR1", element.toString()));
        await(job, element + " requeued", s -> s.stream().anyMatch(t -> t.key().equals(element) && !t.running()));
        // Slurm holds a requeued job back for a while; let it start again now (best effort). Not in the
        // same second as the requeue: slurmd refuses a launch whose credential is not newer, at one-second
        // resolution, than the revocation the requeue made ("Job credential revoked"), and the job FAILS.
        Thread.sleep(2_500);
        command("scontrol", "update", "JobId=" + element, "StartTime=now");
        // (while Slurm requeues, squeue may briefly show the killed attempt as FAILED: wait for the end state)
        await(job, element + " completed", s -> s.stream().anyMatch(t -> t.key().equals(element)
                && t.state().equals("COMPLETED")));

        assertTrue(Completions.isComplete(job.stageDir(job.stage("clean")), 0));
        String log = Files.readString(StageFiles.of(job, job.stage("clean")).slurmLog(element));
        assertTrue(log.contains("sluice: USR1 received, requeueing " + element), log);
        assertEquals(2, log.lines().filter(l -> l.startsWith("sluice: stage clean, ranks 0..0")).count(),
                "both attempts append to one log: " + log);
        Result status = launcher("status", jobFile.toString());
        assertTrue(status.out().contains("stage clean: Slurm requeued 1 array element, 1 time in all (" + element + ")"),
                status.out());
    }

    @Test
    void aSubmitFromInsideAnAllocationGetsTheJobFilesResourcesNotTheAllocations() throws Exception {
        Path out = tmp.resolve("out");
        // the job's env_command shows which memory variables the nested job sees
        Path jobFile = jobFile("nested", examples(), out, ONE_RANK_COPY, "  env_command: \"env | grep ^SLURM_MEM_ | sort\"\n");
        submitted.add(jobFile);
        Job job = JobFile.load(jobFile);
        // an allocation of 2 CPUs and --mem=300M whose batch script runs `launcher submit`: its SLURM_MEM_PER_NODE,
        // if it leaked into the nested job, would sit beside that job's SLURM_MEM_PER_CPU, and srun refuses both
        Path outer = tmp.resolve("outer.sh");
        List<String> launcher = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        launcher.addAll(WorkerCommand.JVM_FLAGS);
        launcher.addAll(List.of("-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "submit",
                jobFile.toString()));
        Files.writeString(outer, "#!/bin/bash\n" + launcher.stream().map(ShellQuote::quote)
                .collect(Collectors.joining(" ")) + "\n");
        Path outerLog = tmp.resolve("outer.out");
        String outerId = SLURM.submit(List.of("--array=0", "--cpus-per-task=2", "--mem=300M", "--output=" + outerLog),
                outer, List.of());
        Instant end = Instant.now().plus(TIMEOUT);
        while (SLURM.queue(List.of(outerId)).stream().noneMatch(ArrayTaskState::ended) && Instant.now().isBefore(end)) {
            Thread.sleep(500);
        }
        String outerOut = Files.exists(outerLog) ? Files.readString(outerLog) : "(no output)";
        assertTrue(outerOut.contains("stage clean: 1 of 1 ranks to run"), outerOut);
        awaitAllEnded(job);
        assertTrue(Completions.isComplete(job.stageDir(job.stage("clean")), 0), outerOut);
        Process show = new ProcessBuilder("scontrol", "show", "job", jobIds(job).getFirst()).start();
        String shown = new String(show.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(shown.contains("CPUs/Task=1 ") && shown.contains("MinMemoryCPU=700M"), shown);
        String inner = Files.readString(StageFiles.of(job, job.stage("clean")).slurmLog(
                new ArrayTaskState.Key(jobIds(job).getFirst(), 0)));
        assertTrue(inner.contains("SLURM_MEM_PER_CPU=700\n") && !inner.contains("SLURM_MEM_PER_NODE"), inner);
    }

    private static boolean slurmLogSays(Path log, String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static int command(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue();
    }
}
