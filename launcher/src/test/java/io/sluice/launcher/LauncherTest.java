package io.sluice.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LauncherTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;

    @BeforeEach
    void capture() {
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(out, true));
        System.setErr(new PrintStream(err, true));
    }

    @AfterEach
    void restore() {
        System.setOut(oldOut);
        System.setErr(oldErr);
    }

    private Path job(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml.replace("$ROOT", dir.toString()));
        return f;
    }

    @Test
    void runsTheBundledQuickstartExample() throws IOException {
        Path project = Path.of(System.getProperty("sluice.root"));
        String yaml = Files.readString(project.resolve("examples/quickstart.yaml"))
                .replace("examples/data", project.resolve("examples/data").toString())
                .replace("out/quickstart", dir.resolve("out").toString());
        assertEquals(0, Launcher.execute("run", job(yaml).toString()), err.toString());
        assertTrue(out.toString().contains("[clean] done: 4 rank(s) run"), out.toString());
        assertTrue(Files.isDirectory(dir.resolve("out/clean")));
        // again: everything is complete and skipped
        assertEquals(0, Launcher.execute("run", job(yaml).toString()));
        assertTrue(out.toString().contains("4 rank(s) already complete, skipped"), out.toString());
    }

    @Test
    void validateReportsProblemsInOneLineWithExitCode2() throws IOException {
        Path f = job("stages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/missing}}]\n");
        assertEquals(2, Launcher.execute("validate", f.toString()));
        assertEquals("error: job.yaml: stages[0] (a).steps[0] (read_jsonl): input path " + dir.resolve("missing")
                + " does not exist\n", err.toString());
    }

    @Test
    void validateAcceptsAGoodJob() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\":\"x\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(0, Launcher.execute("validate", f.toString()), err.toString());
        assertTrue(out.toString().contains(": OK, job 'job'"), out.toString());
    }

    @Test
    void aFailedRankGivesExitCode1() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\":\"x\"}\nnot json\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(1, Launcher.execute("run", f.toString()));
        assertTrue(out.toString().contains("rank 0: a.jsonl:2 (byte 13): malformed JSON"), out.toString());
    }

    @Test
    void runningAStageTheJobDoesNotHaveIsAnError() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\":\"x\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n"
                + "  - name: b\n    steps: [{read_jsonl: {path: $ROOT/o}}, {write_jsonl: {path: $ROOT/o2}}]\n");
        assertEquals(2, Launcher.execute("run", f.toString(), "--stage", "c"));
        assertTrue(err.toString().contains("job 'job' has no stage 'c'; its stages: a, b"), err.toString());
        assertTrue(Files.notExists(dir.resolve("o")));
    }

    @Test
    void changingTheTaskCountUnderTheSameLoggingDirIsAJobError() throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), "{\"text\":\"x\"}\n");
        String yaml = "logging_dir: $ROOT/logs\ntasks: 1\nstages:\n  - name: a\n"
                + "    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n";
        assertEquals(0, Launcher.execute("run", job(yaml).toString()), err.toString());
        assertEquals(2, Launcher.execute("run", job(yaml.replace("tasks: 1", "tasks: 2")).toString()));
        assertTrue(err.toString().contains("shard_plan.json was planned for 1 tasks") && err.toString().contains("new logging_dir"),
                err.toString());
    }

    @Test
    void versionAndUnknownCommand() {
        assertEquals(0, Launcher.execute("--version"));
        assertTrue(out.toString().startsWith("sluice "), out.toString());
        assertEquals(2, Launcher.execute("frobnicate"));
    }
}
