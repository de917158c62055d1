package io.sluice.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    /** The bundled example's input, which job texts name as $EXAMPLES. */
    private static final Path EXAMPLES = Path.of(System.getProperty("sluice.root")).resolve("examples/data");

    /** The job's input: in/a.jsonl with {@code lines}. */
    private void input(String lines) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/a.jsonl"), lines);
    }

    private Path job(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml.replace("$ROOT", dir.toString()).replace("$EXAMPLES", EXAMPLES.toString()));
        return f;
    }

    /**
     * cancel of a job whose logging dir is not there (a relative one, run from another folder) cannot know its
     * Slurm jobs: before, "no Slurm jobs queued or running", exit 0, while they ran on.
     */
    @Test
    void cancelWithoutTheLoggingDirSaysSoAndFails() throws IOException {
        Path f = job("name: far\nlogging_dir: $ROOT/elsewhere/logs\nstages:\n  - name: a\n    steps:\n"
                + "      - read_jsonl: {path: $ROOT}\n");
        assertEquals(1, Launcher.execute("cancel", f.toString()));
        assertTrue(err.toString().contains("error: job 'far' has no logging dir " + dir.resolve("elsewhere/logs")
                + ", where submit keeps its Slurm job ids: it was not submitted with that logging dir. If the job file's"
                + " logging_dir is relative"), err.toString());
    }

    /**
     * A dry run gives the notes a submit gives for the stages it plans at once (before, none): here ranks with no
     * input. It still writes nothing: no shard plan in the logging dir.
     */
    @Test
    void aDryRunGivesTheStageNotesAndWritesNoPlan() throws IOException {
        input("{\"text\":\"x\"}\n");
        Path f = job("""
                logging_dir: $ROOT/logs
                tasks: 4
                stages:
                  - name: a
                    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]
                  - name: b
                    steps: [{read_jsonl: {path: $ROOT/o}}, {write_jsonl: {path: $ROOT/o2}}]
                """);
        assertEquals(0, Launcher.execute("submit", f.toString(), "--dry-run"), err.toString());
        assertTrue(out.toString().contains("[a] note: 3 of 4 ranks have no input (1 input pieces); fewer tasks"), out.toString());
        assertFalse(out.toString().contains("[b] note"), "b is planned on its compute node, after a: " + out);
        assertFalse(Files.exists(dir.resolve("logs")), "a dry run writes nothing");
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
    void aStageReadingAnEarlierStageThatKeptNothingRunsWithNoDocuments() throws IOException {
        // before, stage 1 wrote no folder and the job stopped at the MinHash block with exit 2: "input path ... does not exist"
        String yaml = """
                logging_dir: $ROOT/logs
                tasks: 2
                workers: 2
                stages:
                  - name: filter
                    steps:
                      - read_jsonl: {path: $EXAMPLES, glob: "*.jsonl.gz"}
                      - length_filter: {min_words: 100000000}
                      - write_jsonl: {path: $ROOT/out}
                  - name: d
                    minhash: {input: $ROOT/out, output: $ROOT/deduped, work_dir: $ROOT/mh, bucket_tasks: 28,
                              keep: longest, cluster_metadata: true, exclusion_output: $ROOT/dups}
                  - name: stats
                    steps:
                      - read_jsonl: {path: $ROOT/deduped}
                      - doc_stats: {output: $ROOT/stats}
                  - name: merge
                    tasks: 1
                    steps:
                      - merge_stats: {input: $ROOT/stats}
                """;
        Path f = job(yaml);
        assertEquals(0, Launcher.execute("validate", f.toString()), err.toString());
        // an earlier stage's output that is not there yet stays an error when that stage has not run
        assertEquals(2, Launcher.execute("run", f.toString(), "--stage", "d_signatures"));
        assertTrue(err.toString().contains("stage 'd_signatures' depends on 'filter', which has 2 of 2 ranks not complete"),
                err.toString());

        assertEquals(0, Launcher.execute("run", f.toString()), err.toString());
        String printed = out.toString();
        assertTrue(printed.contains("[d_signatures] note: stage 'd_signatures' reads the output of stage 'filter', which"
                + " kept no documents; its 2 rank(s) run with none"), printed);
        assertTrue(printed.contains("[stats] note: stage 'stats' reads the output of stage 'd_filter', which kept no"
                + " documents"), printed);
        for (String stage : new String[] {"d_buckets] done: 28", "d_cluster] done: 1", "d_filter] done: 2", "merge] done: 1"}) {
            assertTrue(printed.contains("[" + stage + " rank(s) run"), printed);
        }
        // the writers leave their folders, empty, so that "kept nothing" is told from "missing"
        assertEquals(List.of(), filesIn(dir.resolve("out")));
        assertEquals(List.of(), filesIn(dir.resolve("deduped")));
        try (var pairs = Files.list(dir.resolve("mh/buckets"))) {
            assertEquals(28, pairs.count(), "every bucket worker wrote its (empty) pairs file");
        }
        assertTrue(Files.readString(dir.resolve("logs/d_filter/stats.json")).contains("\"documents_written\" : 0"));
    }

    /** A stage's own slurm: keys over the job's block, as datatrove gives each executor its own resources. */
    @Test
    void aStageMayAskSlurmForItsOwnResources() throws IOException {
        input("{\"text\":\"x\"}\n");
        Path f = job("""
                logging_dir: $ROOT/logs
                stages:
                  - name: a
                    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]
                  - name: b
                    slurm: {time: '12:00:00', cpus_per_task: 8, mem_per_cpu: 4G, local_tasks: 8, sbatch_args: {comment: nightly}}
                    steps: [{read_jsonl: {path: $ROOT/o}}, {write_jsonl: {path: $ROOT/o2}}]
                slurm: {time: '01:00:00', cpus_per_task: 2, mem_per_cpu: 1G, local_tasks: 2, sbatch_args: {constraint: avx2}}
                """);
        assertEquals(0, Launcher.execute("submit", f.toString(), "--dry-run"), err.toString());
        String printed = out.toString();
        String scriptA = printed.substring(printed.indexOf("--- " + dir.resolve("logs/a/slurm/launch_script.slurm")),
                printed.indexOf("--- " + dir.resolve("logs/a/slurm/stats_merge.slurm")));
        String scriptB = printed.substring(printed.indexOf("--- " + dir.resolve("logs/b/slurm/launch_script.slurm")),
                printed.indexOf("--- " + dir.resolve("logs/b/slurm/stats_merge.slurm")));
        for (String line : List.of("#SBATCH --time=01:00:00", "#SBATCH --cpus-per-task=2", "#SBATCH --mem-per-cpu=1G",
                "#SBATCH --constraint=avx2", "-Xmx1638m")) {
            assertTrue(scriptA.contains(line), line + " in " + scriptA);
        }
        for (String line : List.of("#SBATCH --time=12:00:00", "#SBATCH --cpus-per-task=8", "#SBATCH --mem-per-cpu=4G",
                "#SBATCH --constraint=avx2", "#SBATCH --comment=nightly", "-Xmx26214m", "--workers 8")) {
            assertTrue(scriptB.contains(line), line + " in " + scriptB);
        }
        assertFalse(err.toString().contains("note: workers is"), err.toString());
        // datatrove's Slurm workers (the %N throttle) moved to the job's workers: submit says what each means
        err.reset();
        Path workers = job(Files.readString(f).replace("logging_dir: ", "workers: 4\nlogging_dir: "));
        assertEquals(0, Launcher.execute("submit", workers.toString(), "--dry-run"), err.toString());
        assertTrue(err.toString().contains("note: workers is the number of ranks `launcher run` runs at once; on Slurm each"
                + " array element runs its slurm.local_tasks ranks, and slurm.array_parallelism (datatrove's Slurm workers)"
                + " limits how many elements run at once"), err.toString());
        // refused as the job's block is, named by the stage
        Path bad = job(Files.readString(f).replace("time: '12:00:00'", "time: soon"));
        assertEquals(2, Launcher.execute("validate", bad.toString()));
        assertTrue(err.toString().contains(bad.getFileName() + ":7: stages[1] (b).slurm.time: 'soon' is not a Slurm time limit"),
                err.toString());
    }

    @Test
    void submitDryRunRefusesWhatSubmitWouldRefuse() throws IOException {
        String yaml = CLEAN_EXAMPLES.replace("      - write_jsonl", "      - length_filter: {min_words: 5}\n      - write_jsonl");
        assertTrue(yaml.contains("length_filter"));
        assertEquals(0, Launcher.execute("run", job(yaml).toString()), err.toString());
        // before, the dry run said "all 2 ranks complete, would not be submitted" and exited 0
        assertEquals(2, Launcher.execute("submit", job(yaml.replace("min_words: 5", "min_words: 9")).toString(), "--dry-run"));
        assertTrue(err.toString().contains("stage 'clean' has 2 completed rank(s) from a run with other settings"), err.toString());
    }

    /** submit --stage, as run --stage: one stage, once what it depends on is complete. */
    @Test
    void submitStageSubmitsOneStageOnceItsInputIsComplete() throws IOException {
        input("{\"text\":\"x\"}\n");
        Path f = job("""
                logging_dir: $ROOT/logs
                stages:
                  - name: a
                    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]
                  - name: b
                    steps: [{read_jsonl: {path: $ROOT/o}}, {write_jsonl: {path: $ROOT/o2}}]
                slurm: {time: '01:00:00'}
                """);
        assertEquals(2, Launcher.execute("submit", f.toString(), "--stage", "b", "--dry-run"));
        // before, it said only "submit without --stage", which is refused while a's jobs are queued
        assertTrue(err.toString().contains("stage 'b' depends on 'a', which has 1 of 1 ranks not complete: let them finish if"
                + " they are queued or running (launcher status), or, once none of the job's arrays is queued, submit with --stage a"
                + " first or without --stage"), err.toString());
        assertEquals(0, Launcher.execute("submit", f.toString(), "--stage", "a", "--dry-run"), err.toString());
        assertTrue(out.toString().contains("logs/a/slurm/launch_script.slurm") && !out.toString().contains("logs/b/slurm"),
                out.toString());
        assertEquals(0, Launcher.execute("run", f.toString(), "--stage", "a"), err.toString());
        out.reset();
        assertEquals(0, Launcher.execute("submit", f.toString(), "--stage", "b", "--dry-run"), err.toString());
        assertTrue(out.toString().contains("logs/b/slurm/launch_script.slurm") && !out.toString().contains("logs/a/slurm"),
                out.toString());
        assertEquals(2, Launcher.execute("submit", f.toString(), "--stage", "c", "--dry-run"));
        assertTrue(err.toString().contains("'c'"), err.toString());
    }

    /** One stage copying the bundled example's files, in two ranks. */
    private static final String CLEAN_EXAMPLES = """
            logging_dir: $ROOT/logs
            tasks: 2
            stages:
              - name: clean
                steps:
                  - read_jsonl: {path: $EXAMPLES, glob: "*.jsonl.gz"}
                  - write_jsonl: {path: $ROOT/out}
            """;

    @Test
    void aSubmitWhileAnotherIsSubmittingTheSameLoggingDirIsRefused() throws IOException {
        Path job = job(CLEAN_EXAMPLES);
        // before, two submits started together both found nothing queued and both submitted every stage
        try (io.sluice.io.ProcessLock held = io.sluice.io.ProcessLock.tryAcquire(dir.resolve("logs/.submit.lock"))) {
            assertTrue(held != null);
            java.nio.file.Files.writeString(dir.resolve("logs/.submit.lock"), ""); // as a holder that names no one
            assertEquals(2, Launcher.execute("submit", job.toString()));
        }
        assertTrue(err.toString().contains("another launcher submit of a job with logging dir " + dir.resolve("logs")
                + " (another process) is submitting right now"), err.toString());
        assertFalse(Files.exists(dir.resolve("logs/clean")), "nothing submitted, nothing written");
    }

    @Test
    void aStageWhoseReaderMissesAnEarlierStagesFilesIsNotToldItKeptNothing() throws IOException {
        String yaml = CLEAN_EXAMPLES + """
                  - name: sample
                    steps:
                      - read_jsonl: {path: $ROOT/out, glob: "*.jsonl.gz"}
                      - write_jsonl: {path: $ROOT/sampled}
                """;
        // the earlier stage writes .jsonl.zst files that the glob misses: an error before anything runs, not a stage
        // run with no documents (and not, as before the check, an error once the earlier stage had run)
        assertEquals(2, Launcher.execute("run", job(yaml).toString()));
        assertTrue(err.toString().contains("reads " + dir.resolve("out") + ", where stage 'clean' writes files such as"
                + " 00000.jsonl.zst, but this reader lists none of them"), err.toString());
        assertFalse(Files.exists(dir.resolve("out")));
        // and an output deleted after its stage completed is missing, not empty
        // (the reader of the earlier stage's .jsonl.zst files; before, this replace matched nothing: its spaces were the source's)
        String zst = yaml.replace("glob: \"*.jsonl.gz\"}\n      - write_jsonl: {path: $ROOT/sampled}",
                "glob: \"*.jsonl.zst\"}\n      - write_jsonl: {path: $ROOT/sampled}");
        assertFalse(zst.equals(yaml));
        assertEquals(0, Launcher.execute("run", job(zst).toString(), "--stage", "clean"), err.toString());
        deleteTree(dir.resolve("out"));
        err.reset();
        assertEquals(2, Launcher.execute("run", job(zst).toString()));
        assertTrue(err.toString().contains("input path " + dir.resolve("out") + " does not exist"), err.toString());
        assertFalse(out.toString().contains("kept no documents"), out.toString());
    }

    @Test
    void validateReportsProblemsInOneLineWithExitCode2() throws IOException {
        Path f = job("stages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/missing}}]\n");
        assertEquals(2, Launcher.execute("validate", f.toString()));
        assertEquals("error: job.yaml:3: stages[0] (a).steps[0] (read_jsonl): input path " + dir.resolve("missing")
                + " does not exist\n", err.toString());
    }

    @Test
    void validateAcceptsAGoodJob() throws IOException {
        input("{\"text\":\"x\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(0, Launcher.execute("validate", f.toString()), err.toString());
        assertTrue(out.toString().contains(": OK, job 'job'"), out.toString());
    }

    @Test
    void validateRefusesTheSlurmOptionsSubmitWouldRefuse() throws IOException {
        input("{\"text\":\"x\"}\n");
        String stages = "logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}]\n";
        // before, validate said OK and submit (or sbatch) refused them
        assertEquals(2, Launcher.execute("validate", job("slurm: {sbatch_args: {array: 0-99}}\n" + stages).toString()));
        assertTrue(err.toString().contains("slurm.sbatch_args: --array is set by `launcher submit` itself"), err.toString());
        Path soon = job("slurm: {time: soon}\n" + stages);
        assertEquals(2, Launcher.execute("validate", soon.toString()));
        assertTrue(err.toString().contains(soon.getFileName() + ":1: slurm.time: 'soon' is not a Slurm time limit"),
                "the message names the job file, as every other job-file error: " + err);
        // an unquoted number, which sbatch reads as minutes (3600 meant as seconds asked for 60 hours)
        Path number = job("slurm: {time: 3600}\n" + stages);
        assertEquals(2, Launcher.execute("validate", number.toString()));
        assertTrue(err.toString().contains(number.getFileName() + ":1: slurm: 'time' is a number (3600), which sbatch reads as minutes;"
                + " write it as Slurm does, quoted: \"01:00:00\" for an hour, or \"3600\" if you mean 3600 minutes"), err.toString());
        // beyond 64 bits: its long value wrapped to 0, "which sbatch reads as no time limit"
        Path huge = job("slurm: {time: 18446744073709551616}\n" + stages);
        assertEquals(2, Launcher.execute("validate", huge.toString()));
        assertTrue(err.toString().contains("'time' is a number (18446744073709551616), which sbatch reads as minutes;"), err.toString());
        for (String time : new String[] {"90", "30:00", "2:00:00", "1-0", "1-12:00", "1-12:00:00", "UNLIMITED"}) {
            assertEquals(0, Launcher.execute("validate", job("slurm: {time: '" + time + "'}\n" + stages).toString()), time);
        }
    }

    @Test
    void aFailedRankGivesExitCode1() throws IOException, InterruptedException {
        input("{\"text\":\"x\"}\nnot json\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(1, Launcher.execute("run", f.toString()));
        assertTrue(out.toString().contains("rank 0: a.jsonl:2 (byte 13): malformed JSON"), out.toString());
        // status of a job run here: the failed rank with its log, where it said "not submitted" and nothing more
        out.reset();
        assertEquals(1, Launcher.execute("status", f.toString()));
        // a job never submitted has no Slurm columns: done, running (here), failed, not run
        assertTrue(out.toString().contains("stage                       done  running  failed  not run\n"
                + "a                            0/1        0       1        0\n"), out.toString());
        assertTrue(out.toString().contains("stage a rank 0 failed in a local run; last lines of "
                + dir.resolve("logs/a/logs/task_00000.log") + ":"), out.toString());
        assertTrue(out.toString().contains("a.jsonl:2 (byte 13): malformed JSON"), out.toString());
        // a run of it going on here: its rank lock names a live process of this host, and its log has started
        // afresh (before: "not run"); a rank whose last run failed stays failed while its process runs others
        Process other = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(dir.resolve("logs/a/logs/task_00000.log"), "INFO rank 0: starting stage 'a' rank 0/1\n",
                    java.nio.file.StandardOpenOption.APPEND);
            Files.writeString(dir.resolve("logs/a/locks/00000.lock"), "pid " + other.pid() + " on "
                    + java.net.InetAddress.getLocalHost().getHostName());
            out.reset();
            Launcher.execute("status", f.toString());
            assertTrue(out.toString().contains("a                            0/1        1       0        0\n"), out.toString());
            // it fails while its process goes on with other ranks: failed, not running (before: running)
            Files.writeString(dir.resolve("logs/a/logs/task_00000.log"), "ERROR rank 0: rank 0 failed: boom\n",
                    java.nio.file.StandardOpenOption.APPEND);
            out.reset();
            Launcher.execute("status", f.toString());
            assertTrue(out.toString().contains("a                            0/1        0       1        0\n"), out.toString());
        } finally {
            other.destroy();
            other.waitFor();
        }
    }

    /**
     * What run says as a stage ends about documents without a URL, status says too, from stats.json: on Slurm no
     * console said it, and the report's domain tables quietly covered 61 of 1,066 documents.
     */
    @Test
    void statusSaysWhatRunSaidOfDocumentsWithoutAUrl() throws IOException {
        input("{\"text\": \"one two\", \"metadata\": {\"url\": \"https://a.example.org/x\"}}\n{\"text\": \"three\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}},"
                + " {doc_stats: {output: $ROOT/stats, groups: [fqdn]}}]\n");
        assertEquals(0, Launcher.execute("run", f.toString()), err.toString());
        String note = "no URL in 1 of 2 documents, counted by doc_stats (no_url_fqdn); url_key says where it is looked for";
        assertTrue(out.toString().contains("[a] note: " + note), out.toString());
        out.reset();
        Launcher.execute("status", f.toString());
        assertTrue(out.toString().contains("stage a: " + note), out.toString());
    }

    /** A rank whose local run was killed as it ran: status said only "not run", as if it had never started. */
    @Test
    void statusNamesTheRanksAKilledLocalRunLeftUnfinished() throws IOException {
        input("{\"text\":\"x\"}\n{\"text\": \"\"}\n{\"content\": \"y\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(0, Launcher.execute("run", f.toString()), err.toString());
        out.reset();
        Launcher.execute("status", f.toString());
        assertFalse(out.toString().contains("local run that ended"), out.toString());
        // what the reader skipped, from the stage's stats.json (on Slurm, no console said it)
        assertTrue(out.toString().contains("stage a: read_jsonl skipped 1 line(s) without the text key (text_key names it),"
                + " 1 line(s) with empty text (as datatrove skips them); its task logs name them\n"), out.toString());
        // what a run killed as the rank ran again leaves: no marker, its log started, its lock's process gone
        Files.delete(dir.resolve("logs/a/completions/00000"));
        Files.writeString(dir.resolve("logs/a/logs/task_00000.log"), "INFO rank 0: starting stage 'a' rank 0/1\n",
                java.nio.file.StandardOpenOption.APPEND);
        out.reset();
        Launcher.execute("status", f.toString());
        assertTrue(out.toString().contains("a                            0/1        0       0        1\n"), out.toString());
        assertTrue(out.toString().contains("stage a: rank 0 started in a local run that ended before it did (killed, or"
                + " Ctrl-C); `launcher run` again starts it over"), out.toString());
        // run by another host (local_tasks across machines): it may be running still, which this host cannot tell
        Files.writeString(dir.resolve("logs/a/locks/00000.lock"), "pid 4242 on another-node-of-the-cluster");
        out.reset();
        Launcher.execute("status", f.toString());
        assertFalse(out.toString().contains("local run that ended"), out.toString());
    }

    /** Ctrl-C or a kill ended a run without a word; now it says what is kept and how to go on. */
    @Test
    void aRunEndedBySigtermSaysHowToResume() throws Exception {
        // 64 MB of made-up words through two stats blocks, one rank: seconds of work to interrupt (the shared
        // corpus was used before, and the test failed in a clone that had none beside it)
        Path corpus = dir.resolve("corpus");
        Files.createDirectories(corpus);
        java.util.Random rnd = new java.util.Random(7);
        String[] words = new String[5000];
        for (int w = 0; w < words.length; w++) {
            StringBuilder word = new StringBuilder();
            for (int c = 1 + rnd.nextInt(9); c > 0; c--) {
                word.append((char) ('a' + rnd.nextInt(26)));
            }
            words[w] = word.toString();
        }
        try (java.io.BufferedWriter w = Files.newBufferedWriter(corpus.resolve("words.jsonl"))) {
            StringBuilder text = new StringBuilder();
            for (int d = 0; d < 8000; d++) {
                text.setLength(0);
                while (text.length() < 8000) {
                    text.append(words[rnd.nextInt(words.length)]).append(rnd.nextInt(12) == 0 ? ". " : " ");
                }
                w.write("{\"id\": \"" + d + "\", \"text\": \"" + text + "\"}\n");
            }
        }
        Path f = job("logging_dir: $ROOT/logs\ntasks: 1\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: " + corpus
                + "}}, {doc_stats: {output: $ROOT/stats}}, {word_stats: {output: $ROOT/stats}}]\n");
        Path log = dir.resolve("console.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "io.sluice.launcher.Launcher", "run", f.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Path taskLog = dir.resolve("logs/a/logs/task_00000.log");
            for (int i = 0; i < 600 && !Files.exists(taskLog); i++) {
                Thread.sleep(100);
            }
            assertTrue(Files.exists(taskLog), Files.readString(log));
            Thread.sleep(300);
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the run did not end");
            assertEquals(143, p.exitValue(), Files.readString(log));
        } finally {
            p.destroyForcibly();
        }
        assertTrue(Files.readString(log).contains("[job] interrupted: the ranks that completed are kept, and the others start"
                + " over when the job runs again. Run the same command to resume"),
                Files.readString(log));
    }

    /**
     * An input gone since the plan was made, beside a completed rank: refused before any rank runs, naming the file
     * and the plan, where the rank failed on the file's path alone. With no rank complete, the stage is planned again.
     */
    @Test
    void aRankWhoseInputIsGoneSaysSo() throws IOException {
        input("{\"text\":\"x\"}\n");
        Files.writeString(dir.resolve("in/b.jsonl"), "{\"text\":\"y\"}\n");
        Path f = job("logging_dir: $ROOT/logs\ntasks: 2\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}},"
                + " {write_jsonl: {path: $ROOT/o}}]\n");
        assertEquals(0, Launcher.execute("run", f.toString()), err.toString());
        Files.delete(dir.resolve("in/a.jsonl"));
        Files.delete(dir.resolve("logs/a/completions/00000"));
        assertEquals(2, Launcher.execute("run", f.toString()), err.toString());
        assertTrue(err.toString().contains("stage 'a': input " + dir.resolve("in/a.jsonl") + " is gone; it was 13 bytes when"
                + " read, and the plan lists it (" + dir.resolve("logs/a/shard_plan.json") + ")"), err.toString());
        assertEquals(2, Launcher.execute("validate", f.toString()), err.toString());

        Files.delete(dir.resolve("logs/a/completions/00001"));
        assertEquals(0, Launcher.execute("run", f.toString()), err.toString());
    }

    @Test
    void runningAStageTheJobDoesNotHaveIsAnError() throws IOException {
        input("{\"text\":\"x\"}\n");
        Path f = job("logging_dir: $ROOT/logs\nstages:\n  - name: a\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n"
                + "  - name: b\n    steps: [{read_jsonl: {path: $ROOT/o}}, {write_jsonl: {path: $ROOT/o2}}]\n");
        assertEquals(2, Launcher.execute("run", f.toString(), "--stage", "c"));
        assertTrue(err.toString().contains("job 'job' has no stage 'c'; its stages: a, b"), err.toString());
        assertTrue(Files.notExists(dir.resolve("o")));
    }

    @Test
    void changingTheTaskCountUnderTheSameLoggingDirIsAJobError() throws IOException {
        input("{\"text\":\"x\"}\n");
        String yaml = "logging_dir: $ROOT/logs\ntasks: 1\nstages:\n  - name: a\n"
                + "    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n"
                + "  - name: b\n    tasks: 1\n    steps: [{read_jsonl: {path: $ROOT/o}}, {doc_stats: {output: $ROOT/st}},"
                + " {write_jsonl: {path: $ROOT/o2}}]\n"
                + "  - name: m\n    depends: [b]\n    steps: [{merge_stats: {input: $ROOT/st}}]\n";
        Path changed = runThenRefused(yaml, yaml.replaceFirst("tasks: 1", "tasks: 2"));
        assertTrue(err.toString().contains("shard_plan.json was planned for 1 tasks") && err.toString().contains("new logging_dir"),
                err.toString());
        // b, which reads a's output, and m, which merges b's stats, would refuse next: named now, so that one round of
        // deleting does it (m was left out, and refused after the first round)
        assertTrue(err.toString().contains("to run the changed stage; then the stages 'b', 'm' after it, with completed ranks,"
                + " would refuse its changed output too: delete " + dir.resolve("logs/b") + ", " + dir.resolve("logs/m")
                + " with it"), err.toString());
        runAfterDeleting(changed, "a", "b", "m");
        assertTrue(Files.exists(dir.resolve("st/summary/length/metric.json")));
    }

    /** A stage after the changed one in the file that does not read its output is not named: deleting it was for nothing. */
    @Test
    void aChangedStagesRefusalNamesOnlyTheStagesReadingItsOutput() throws IOException {
        input("{\"text\":\"x\"}\n");
        // s and m wait for the stage before them in the file (no depends), but s reads the input, not a's output
        String yaml = "logging_dir: $ROOT/logs\nstages:\n"
                + "  - name: a\n    tasks: 1\n    steps: [{read_jsonl: {path: $ROOT/in}}, {write_jsonl: {path: $ROOT/o}}]\n"
                + "  - name: s\n    steps: [{read_jsonl: {path: $ROOT/in}}, {doc_stats: {output: $ROOT/st}}]\n"
                + "  - name: m\n    steps: [{merge_stats: {input: $ROOT/st}}]\n";
        Path changed = runThenRefused(yaml, yaml.replace("    tasks: 1\n", "    tasks: 2\n"));
        assertTrue(err.toString().contains("delete " + dir.resolve("logs/a") + ", to run the changed stage\n"), err.toString());
        runAfterDeleting(changed, "a");
    }

    /** Runs {@code yaml} to the end, then {@code changedYaml}, which run refuses (exit 2); returns the changed job's file. */
    private Path runThenRefused(String yaml, String changedYaml) throws IOException {
        assertEquals(0, Launcher.execute("run", job(yaml).toString()), err.toString());
        Path changed = job(changedYaml);
        assertEquals(2, Launcher.execute("run", changed.toString()));
        return changed;
    }

    /** Deletes the logging folders of {@code stages}, as a refusal says to, and runs {@code job} again to the end. */
    private void runAfterDeleting(Path job, String... stages) throws IOException {
        for (String stage : stages) {
            deleteTree(dir.resolve("logs/" + stage));
        }
        err.reset();
        assertEquals(0, Launcher.execute("run", job.toString()), err.toString());
    }

    /** validate says what run would refuse in the logging dir; before, it said OK and run refused. */
    @Test
    void validateRefusesAChangedCompletedStage() throws IOException {
        input("{\"text\":\"one two three four five\"}\n");
        String yaml = "logging_dir: $ROOT/logs\nstages:\n  - name: a\n"
                + "    steps: [{read_jsonl: {path: $ROOT/in}}, {length_filter: {min_words: 2}}, {write_jsonl: {path: $ROOT/o}}]\n";
        assertEquals(0, Launcher.execute("run", job(yaml).toString()), err.toString());
        Path changed = job(yaml.replace("min_words: 2", "min_words: 3"));
        assertEquals(2, Launcher.execute("validate", changed.toString()));
        String validateSays = err.toString();
        assertTrue(validateSays.contains("min_words"), validateSays);
        err.reset();
        assertEquals(2, Launcher.execute("run", changed.toString()));
        assertEquals(validateSays, err.toString(), "validate refuses as run does");
        // and status, which counts the stage's ranks done, says that run will not take them as done
        out.reset();
        assertEquals(1, Launcher.execute("status", changed.toString()));
        assertTrue(out.toString().contains("note: " + validateSays.substring("error: ".length()).strip()), out.toString());
    }

    @Test
    void versionAndUnknownCommand() {
        assertEquals(0, Launcher.execute("--version"));
        assertTrue(out.toString().startsWith("sluice "), out.toString());
        assertEquals(2, Launcher.execute("frobnicate"));
        assertTrue(err.toString().contains("error: 'frobnicate' is not a launcher command; the commands: run, validate, report,"
                + " submit, status, cancel, help ('launcher help COMMAND' tells one)"), err.toString());
        // picocli suggested the nearest command however far: "plan" got "Did you mean: launcher cancel?"
        err.reset();
        assertEquals(2, Launcher.execute("plan", "job.yaml"));
        assertFalse(err.toString().contains("cancel?"), err.toString());
        err.reset();
        assertEquals(2, Launcher.execute("runn", "job.yaml"));
        assertTrue(err.toString().contains("error: 'runn' is not a launcher command (did you mean 'run'?)"), err.toString());
        // a command in capitals is near; a datatrove option's name gets no job-file hint
        err.reset();
        assertEquals(2, Launcher.execute("RUN", "job.yaml"));
        assertTrue(err.toString().contains("error: 'RUN' is not a launcher command (did you mean 'run'?)"), err.toString());
        err.reset();
        assertEquals(2, Launcher.execute("tasks"));
        assertTrue(err.toString().startsWith("error: 'tasks' is not a launcher command; the commands:"), err.toString());
        // an unknown option of a command is still picocli's own message, with the command's usage
        err.reset();
        assertEquals(2, Launcher.execute("run", "--frob", "job.yaml"));
        assertTrue(err.toString().contains("Unknown option: '--frob'"), err.toString());
    }

    private static List<Path> filesIn(Path folder) throws IOException {
        try (var walk = Files.walk(folder)) {
            return walk.filter(Files::isRegularFile).toList();
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        try (var walk = Files.walk(folder)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * A stats step that fills the heap (a domain table of 300,000 hosts in 48 MB) is named, with advice, in the task log
     * and on the console: building that message ran out of memory itself, and the log said only
     * "java.lang.OutOfMemoryError: Java heap space", the console a progress thread's uncaught error.
     */
    @Test
    void aStepThatFillsTheHeapIsNamedWithAdvice() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 300_000; i++) {
            lines.append("{\"text\":\"a b c\",\"id\":\"").append(i).append("\",\"metadata\":{\"url\":\"https://host")
                    .append(i).append(".example").append(i % 97).append(".com/x\"}}\n");
        }
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(dir.resolve("in/hosts.jsonl"), lines);
        Path job = dir.resolve("oom.yaml");
        Files.writeString(job, """
                name: oom
                logging_dir: $ROOT/logs
                tasks: 1
                stages:
                  - name: stats
                    steps:
                      - read_jsonl: {path: $ROOT/in}
                      - doc_stats: {output: $ROOT/stats, groups: [fqdn], top_k_groups: []}
                """.replace("$ROOT", dir.toString()));
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "run", job.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), out);
        String log = Files.readString(dir.resolve("logs/stats/logs/task_00000.log"));
        // the heap may run out in doc_stats (named, with the document) or in the reader's next allocation: advice either way
        for (String told : List.of(out, log)) {
            assertTrue(told.contains("out of memory (Java heap space); give the workers more heap (SLUICE_JAVA_OPTS=-Xmx...,"
                    + " or the slurm block's memory) or fewer workers"), told);
        }
        assertFalse(out.contains("UncaughtExceptionHandler"), out);
    }
}
