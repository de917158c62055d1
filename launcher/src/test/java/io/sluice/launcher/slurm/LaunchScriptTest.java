package io.sluice.launcher.slurm;

import io.sluice.job.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rendered script is valid bash, and values from the job file reach the worker as exactly the
 * words they are, executing nothing: each test runs the script with a fake {@code java} that
 * records its arguments, from a directory where an injected {@code touch PWNED*} would show.
 */
class LaunchScriptTest {

    /** Everything a shell might act on: quotes, command substitution, backticks, newlines, globs, variables. */
    private static final String HOSTILE = "a b 'q' \"dq\" $(touch PWNED1) `touch PWNED2` ; touch PWNED3 \n"
            + "touch PWNED4 $HOME * \\ %x";

    @TempDir
    Path tmp;

    private Path fakeJavaHome(String name) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve(name).resolve("bin"));
        Path java = bin.resolve("java");
        // one argument per line would break on the newlines we pass; NUL-separate them instead
        Files.writeString(java, "#!/bin/bash\nprintf '%s\\0' \"$@\" > \"$ARGS_OUT\"\n[ -z \"${JAVA_SLEEP:-}\" ] || sleep \"$JAVA_SLEEP\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return tmp.resolve(name);
    }

    private record Run(int exit, List<String> javaArgs, String output) {
    }

    private Run run(Path script, Map<String, String> env, String... args) throws Exception {
        Path cwd = Files.createDirectories(tmp.resolve("cwd"));
        Path argsOut = tmp.resolve("java-args");
        Files.deleteIfExists(argsOut);
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of("bash", script.toString()), Arrays.stream(args)).toList());
        pb.directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().put("ARGS_OUT", argsOut.toString());
        pb.environment().put("SLURM_ARRAY_JOB_ID", "77");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        try (Stream<Path> files = Files.list(cwd)) {
            assertEquals(List.of(), files.map(f -> f.getFileName().toString()).toList(), "script created files: " + out);
        }
        List<String> words = Files.exists(argsOut)
                ? List.of(Files.readString(argsOut).split("\0", -1)) : List.of();
        return new Run(p.exitValue(), words.isEmpty() ? words : words.subList(0, words.size() - 1), out);
    }

    private static String bashSyntax(Path script) throws Exception {
        Process p = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return p.exitValue() == 0 ? "ok" : out;
    }

    private Path render(Job job, Set<Integer> completed, WorkerCommand worker) throws IOException {
        Job.Stage stage = job.stages().getFirst();
        StageFiles files = StageFiles.of(job, stage);
        SlurmOptions s = SlurmOptions.of(job, stage);
        ArrayPlan plan = ArrayPlan.of(stage.tasks(), completed, s.localTasks(), s.arrayParallelism(), s.maxArraySize());
        String text = LaunchScript.render(job, stage, plan, SbatchOptions.forStage(job, stage, files.slurmDir()),
                worker, job.loggingDir().resolve("job.json"));
        Path script = tmp.resolve("launch_script.slurm");
        Files.writeString(script, text);
        return script;
    }

    /** The flag the scripts add on a node whose kernel gives transparent huge pages on request, as this one may. */
    private static final List<String> HUGE_PAGES = hugePagesOnRequest() ? List.of("-XX:+UseTransparentHugePages") : List.of();

    private static boolean hugePagesOnRequest() {
        try {
            return Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).contains("[madvise]");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void hostileValuesReachTheWorkerVerbatimAndExecuteNothing() throws Exception {
        Path javaHome = fakeJavaHome("jdk " + HOSTILE.replace("\n", " ").replace("\\", ""));
        Path loggingDir = tmp.resolve("logs " + HOSTILE);
        String stageName = "stage " + HOSTILE.replace("\\", "");
        Job job = TestJobs.job("job " + HOSTILE, loggingDir,
                TestJobs.slurm(3, 4, 1001, false, javaHome.toString(), Map.of("comment", HOSTILE)),
                TestJobs.stage(stageName, 7));
        WorkerCommand worker = new WorkerCommand(javaHome.resolve("bin/java").toString(),
                List.of("/opt/sluice " + HOSTILE + "/sluice.jar"), WorkerCommand.WORKER_MAIN);
        Path script = render(job, Set.of(), worker);
        assertEquals("ok", bashSyntax(script));

        // element 1 of the submission with block offset 1 runs block 2: rank 6, the stage's last (it said 6..8)
        Run r = run(script, Map.of("SLURM_ARRAY_TASK_ID", "1"), "1");
        assertEquals(0, r.exit(), r.output());
        List<String> expected = new java.util.ArrayList<>(HUGE_PAGES);
        expected.addAll(List.of("--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseParallelGC", "-XX:Tier3BackEdgeThreshold=600000", "-XX:Tier4BackEdgeThreshold=400000", "-XX:InlineSmallCode=1000", "-XX:ActiveProcessorCount=2", "-Xmx1638m", "-cp", "/opt/sluice " + HOSTILE + "/sluice.jar", WorkerCommand.WORKER_MAIN,
                "--job", loggingDir.resolve("job.json").toString(), "--stage", stageName, "--workers", "2",
                "--first-rank", "6", "--ranks", "1"));
        assertEquals(expected, r.javaArgs());
        assertTrue(r.output().contains("ranks 6..6"), r.output());

        Job.Stage stage = job.stages().getFirst();
        Path stats = tmp.resolve("stats_merge.slurm");
        Files.writeString(stats, LaunchScript.renderStatsMerge(job, stage,
                SbatchOptions.forStatsMerge(job, stage, StageFiles.of(job, stage).slurmDir()), worker,
                loggingDir.resolve("job.json")));
        assertEquals("ok", bashSyntax(stats));
        Run merge = run(stats, Map.of("SLURM_ARRAY_TASK_ID", "0"));
        assertEquals(0, merge.exit(), merge.output());
        List<String> args = merge.javaArgs();
        assertEquals(List.of("-XX:+UseParallelGC", "-XX:Tier3BackEdgeThreshold=600000", "-XX:Tier4BackEdgeThreshold=400000", "-XX:InlineSmallCode=1000", "-XX:ActiveProcessorCount=1", "-Xmx819m", "-cp", "/opt/sluice " + HOSTILE + "/sluice.jar", WorkerCommand.WORKER_MAIN,
                "--job", loggingDir.resolve("job.json").toString(), "--stage", stageName, "--workers", "1",
                "--first-rank", "0", "--ranks", "0"), args.subList(3 + HUGE_PAGES.size(), args.size()));
    }

    /** java_home: PATH runs the java that env_command puts on the PATH (module load java/21): before, no way to. */
    @Test
    void javaHomePathRunsTheJavaOnThePathAfterEnvCommand() throws Exception {
        Path javaHome = fakeJavaHome("module-jdk");
        SlurmOptions s = new SlurmOptions("debug", "00:10:00", 2, "1G", 1, 0, 1001, false, 60,
                "export PATH=" + javaHome.resolve("bin") + ":$PATH", null, null, null, null, WorkerCommand.JAVA_ON_PATH, Map.of());
        Job job = TestJobs.job("j", tmp.resolve("logs"), s, TestJobs.stage("s", 2));
        Path script = render(job, Set.of(), WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN));
        assertTrue(Files.readString(script).contains("\njava \"${thp[@]}\" --add-modules"), Files.readString(script));
        Run r = run(script, Map.of("SLURM_ARRAY_TASK_ID", "1"));
        assertEquals(0, r.exit(), r.output());
        assertEquals(List.of("--first-rank", "1", "--ranks", "1"), r.javaArgs().subList(r.javaArgs().size() - 4, r.javaArgs().size()));
        // an env_command that fails (a module not found, before a last line that works) stops the element, saying
        // so; before, java ran anyway, and then when only the last line's status was looked at
        SlurmOptions failing = new SlurmOptions("debug", "00:10:00", 2, "1G", 1, 0, 1001, false, 60,
                "module_load() { return 3; }\nif false; then :; fi\nmodule_load java/21\nexport SOMETHING=1", null, null, null,
                null, WorkerCommand.JAVA_ON_PATH, Map.of());
        Job failed = TestJobs.job("j", tmp.resolve("logs"), failing, TestJobs.stage("s", 2));
        r = run(render(failed, Set.of(), WorkerCommand.sameAsLauncher(failed, WorkerCommand.WORKER_MAIN)),
                Map.of("SLURM_ARRAY_TASK_ID", "1"));
        assertEquals(3, r.exit(), r.output());
        assertTrue(r.output().contains("sluice: env_command failed (exit status 3); the worker was not started"), r.output());
        assertTrue(r.javaArgs().isEmpty(), "java did not run");
    }

    @Test
    void scatteredRanksAreLookedUpInTheBlockTable() throws Exception {
        Path javaHome = fakeJavaHome("jdk");
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 4, 1001, false, javaHome.toString(), Map.of()),
                TestJobs.stage("s", 30));
        // pending: 1, 4, 5, 9, 20..29 -> blocks 1:4 5:5 20:2 22:2 ...
        Set<Integer> done = new java.util.HashSet<>(Set.of(0, 2, 3, 6, 7, 8));
        for (int r = 10; r < 20; r++) {
            done.add(r);
        }
        Path script = render(job, done, WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN));
        assertEquals("ok", bashSyntax(script));
        List<String> args = run(script, Map.of("SLURM_ARRAY_TASK_ID", "1")).javaArgs();
        assertEquals(List.of("--first-rank", "5", "--ranks", "5"), args.subList(args.size() - 4, args.size()));
        args = run(script, Map.of("SLURM_ARRAY_TASK_ID", "6")).javaArgs();
        assertEquals(List.of("--first-rank", "28", "--ranks", "2"), args.subList(args.size() - 4, args.size()));
    }

    @Test
    void usr1RequeuesTheArrayElementAndTheScriptWaitsForTheWorker() throws Exception {
        Path javaHome = fakeJavaHome("jdk");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path scontrolArgs = tmp.resolve("scontrol-args");
        Files.writeString(bin.resolve("scontrol"), "#!/bin/bash\necho \"$@\" > " + ShellQuote.quote(scontrolArgs.toString()) + "\n");
        Files.setPosixFilePermissions(bin.resolve("scontrol"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 1, 1001, true, javaHome.toString(), Map.of()),
                TestJobs.stage("s", 3));
        Path script = render(job, Set.of(), WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN));
        assertEquals("ok", bashSyntax(script));
        // the script signals itself, as Slurm would, while the (fake) worker runs
        String text = Files.readString(script).replace("worker=$!\n", "worker=$!\n(sleep 1; kill -USR1 $$) &\n");
        Files.writeString(script, text);
        Run r = run(script, Map.of("SLURM_ARRAY_TASK_ID", "2", "JAVA_SLEEP", "3",
                "PATH", bin + ":" + System.getenv("PATH")));
        assertEquals(0, r.exit(), r.output());
        assertEquals("requeue 77_2\n", Files.readString(scontrolArgs));
        assertTrue(r.output().contains("USR1 received, requeueing 77_2"), r.output());
        assertEquals(List.of("--first-rank", "2", "--ranks", "1"), r.javaArgs().subList(r.javaArgs().size() - 4, r.javaArgs().size()));

        // requeued before, and no rank completed in this attempt: not again (before, it was requeued for ever,
        // starting the same ranks over each time)
        Files.delete(scontrolArgs);
        Map<String, String> again = Map.of("SLURM_ARRAY_TASK_ID", "2", "JAVA_SLEEP", "3", "SLURM_RESTART_COUNT", "2",
                "PATH", bin + ":" + System.getenv("PATH"));
        r = run(script, again);
        assertEquals(0, r.exit(), r.output());
        assertFalse(Files.exists(scontrolArgs), "no requeue");
        assertTrue(r.output().contains("sluice: USR1 received, but 77_2 completed no rank in this attempt (requeued 2 time(s)"
                + " before): not requeued again; it ends at its time limit"), r.output());
        // a rank completed in this attempt: requeued, its completed ranks to be skipped
        Path completions = Files.createDirectories(job.loggingDir().resolve("s/completions"));
        Files.writeString(script, Files.readString(script).replace("(sleep 1; kill -USR1 $$) &",
                "(sleep 0.5; touch " + ShellQuote.quote(completions.resolve("00002").toString()) + "; sleep 0.5; kill -USR1 $$) &"));
        r = run(script, again);
        assertEquals("requeue 77_2\n", Files.readString(scontrolArgs), r.output());
    }

    @Test
    void theHeapIsSizedFromMemPerCpuOrFromSbatchArgsMem() {
        SlurmOptions perCpu = TestJobs.slurm(1, 0, 1001, false, null, Map.of());
        assertEquals(2048, LaunchScript.taskMegabytes(perCpu, 2));
        SlurmOptions mem = new SlurmOptions(null, null, 2, null, 1, 0, 1001, false, 60, null, null, null, null,
                null, null, Map.of("mem", "4G"));
        assertEquals(4096, LaunchScript.taskMegabytes(mem, 2));
        SlurmOptions gpu = new SlurmOptions(null, null, 2, null, 1, 0, 1001, false, 60, null, null, null, null,
                null, null, Map.of("mem-per-gpu", "4G"));
        assertEquals(0, LaunchScript.taskMegabytes(gpu, 2), "unknown: no -Xmx, the JVM sizes its heap");
        SlurmOptions perCpuArg = new SlurmOptions(null, null, 2, null, 1, 0, 1001, false, 60, null, null, null, null,
                null, null, Map.of("mem-per-cpu", "3G"));
        assertEquals(6144, LaunchScript.taskMegabytes(perCpuArg, 2));
    }
}
