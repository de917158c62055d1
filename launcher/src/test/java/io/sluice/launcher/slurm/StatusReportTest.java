package io.sluice.launcher.slurm;

import io.sluice.io.Completions;
import io.sluice.job.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusReportTest {

    @TempDir
    Path tmp;

    /** A Slurm that has taken the job's submission: array jobs from 100 up, a stats merge job per stage. */
    private static RecordingSlurm submitted(Job job) {
        RecordingSlurm slurm = new RecordingSlurm();
        new Submitter(slurm, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .submit(Submitter.plan(job, WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN),
                        job.loggingDir().resolve("job.json")), s -> { });
        return slurm;
    }

    @Test
    void countsEachRankOnceAndShowsTheLogTailOfFailedRanks() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 8), TestJobs.stage("merge", 1));
        RecordingSlurm slurm = submitted(job);
        // job 100 runs a: elements 0..3 = ranks 0-1, 2-3, 4-5, 6-7; 101 merges a's stats; job 102 runs merge
        Path a = job.loggingDir().resolve("a");
        for (int r : new int[] {0, 1, 2}) {
            Completions.markComplete(a, r);
        }
        Path log = a.resolve("logs/task_00003.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, IntStream.rangeClosed(1, 14).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"))
                + "\nERROR corrupt.jsonl.gz: not in gzip format at byte 0\n"
                + "java.io.IOException: corrupt.jsonl.gz: not in gzip format at byte 0\n"
                + "\tat io.sluice.io.JsonlReader.frame(JsonlReader.java:146)\n\t... 11 more\n");
        Path slurmOut = StageFiles.of(job, job.stage("a")).slurmLog(new ArrayTaskState.Key("100", 1));
        Files.createDirectories(slurmOut.getParent());
        Files.writeString(slurmOut, "sluice: stage a, ranks 2..3, on node1\nsluice: the worker was killed by signal 9 (exit status 137)\n");
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 1), "FAILED", "NonZeroExitCode"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 2), "RUNNING", "None"));
        // of element 100_2's ranks, 4 runs and 5 waits for the element's one worker
        Files.writeString(a.resolve("logs/task_00004.log"), "INFO starting stage 'a' rank 4/8\n");
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 3), "PENDING", "JobArrayTaskLimit"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("102", 0), "CANCELLED", "DependencyNeverSatisfied"));

        List<StatusReport.StageStatus> stages = StatusReport.collect(job, slurm);
        StatusReport.StageStatus sa = stages.get(0);
        assertEquals(List.of(3, 1, 3, 1, 0, 0), List.of(sa.done(), sa.running(), sa.pending(), sa.failed().size(), sa.cancelled(),
                sa.notSubmitted()));
        assertEquals(Map.of("JobArrayTaskLimit", 2, "InRunningElement", 1), sa.pendingReasons(), "element 100_3 holds ranks 6 and 7");
        StatusReport.FailedRank f = sa.failed().getFirst();
        assertEquals(3, f.rank());
        assertEquals("100_1", f.element().toString());
        assertEquals("FAILED NonZeroExitCode", f.state());
        assertEquals(10, f.logTail().size());
        assertEquals(List.of("line 14", "ERROR corrupt.jsonl.gz: not in gzip format at byte 0"),
                f.logTail().subList(8, 10), "stack frames, and the exception's own line that repeats the message, are left out");
        assertEquals(List.of("sluice: stage a, ranks 2..3, on node1", "sluice: the worker was killed by signal 9 (exit status 137)"),
                f.slurmTail(), "what the rank's own log cannot say");
        StatusReport.StageStatus merge = stages.get(1);
        assertEquals(List.of(0, 1), List.of(merge.failed().size(), merge.cancelled()),
                "cancelled for a failed dependency: not a failure of its own");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, stages, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("stage a: 3 ranks pending: 2 JobArrayTaskLimit (held back by array_parallelism, the array's"
                + " limit on elements at once); 1 InRunningElement (its array element runs, and it waits for one of the"
                + " element's workers)\n"), text);
        assertTrue(!text.matches("(?s).*stage merge: \\d+ ranks? pending.*"), text);
        assertTrue(text.contains("stage a rank 3 failed: Slurm job 100_1 FAILED NonZeroExitCode; last lines of " + log), text);
        assertTrue(text.contains("  | ERROR corrupt.jsonl.gz: not in gzip format at byte 0"), text);
        assertTrue(text.contains("  and of Slurm's " + slurmOut + ":\n  | sluice: stage a, ranks 2..3, on node1\n"), text);
        // cancelling first: the reason is not known here, and a launcher cancel read as a failed dependency
        assertTrue(text.contains("stage merge: 1 rank ended before it started: cancelled, by launcher cancel or scancel, or by"
                + " Slurm when a job it waited for failed (DependencyNeverSatisfied); submit again to run it"), text);
        assertTrue(!text.contains("stage merge rank 0 failed"), text);
    }

    /**
     * With the controller down, the ranks done are still told (from their completion markers), and the rest are
     * said to be unknown rather than failed or pending; before, status printed squeue's error and no table.
     */
    @Test
    void withSlurmDownTheRanksDoneAreToldAndTheRestUnknown() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 8), TestJobs.stage("merge", 1));
        RecordingSlurm slurm = submitted(job);
        for (int r : new int[] {0, 1, 2}) {
            Completions.markComplete(job.loggingDir().resolve("a"), r);
        }
        slurm.queueFailure = "squeue failed (exit 1): slurm_load_jobs error: Unable to contact slurm controller (connect failure)";

        List<StatusReport.StageStatus> stages = StatusReport.collect(job, slurm);
        assertEquals(List.of(3, 5, 0, 0, 0), List.of(stages.get(0).done(), stages.get(0).unknown(), stages.get(0).running(),
                stages.get(0).pending(), stages.get(0).failed().size()));
        assertEquals(List.of(0, 1), List.of(stages.get(1).done(), stages.get(1).unknown()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, stages, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*\na +3/8 +0 +0 +0 +0 +0 +5  100,101\n.*"), text);
        assertTrue(text.contains("Slurm's state of the jobs could not be read (squeue failed (exit 1): slurm_load_jobs error:"
                + " Unable to contact slurm controller (connect failure)): 'done' is read from the ranks' completion markers"), text);
        assertTrue(!text.contains("failed:"), text);
    }

    /**
     * launcher cancel while an element runs: its rank that had started failed, those it had not come to are
     * cancelled. Before, they were failed ranks whose log tails were another rank's lines.
     */
    @Test
    void ranksAnElementCancelledWhileRunningHadNotStartedAreCancelledNotFailed() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(3, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 3));
        RecordingSlurm slurm = submitted(job);
        ArrayTaskState.Key element = new ArrayTaskState.Key("100", 0);
        Path a = job.loggingDir().resolve("a");
        Completions.markComplete(a, 0);
        Path log = a.resolve("logs/task_00001.log");
        Files.createDirectories(log.getParent());
        Files.writeString(log, "INFO starting stage 'a' rank 1/3\n");
        Path slurmOut = StageFiles.of(job, job.stage("a")).slurmLog(element);
        Files.createDirectories(slurmOut.getParent());
        Files.writeString(slurmOut, "sluice: stage a, ranks 0..2, on node1\nslurmstepd: *** JOB 100 CANCELLED AT 2026-11-28 ***\n");
        slurm.queue.add(new ArrayTaskState(element, "CANCELLED", "None"));
        StatusReport.StageStatus sa = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(1, 1, 1), List.of(sa.done(), sa.failed().size(), sa.cancelled()));
        assertEquals(1, sa.failed().getFirst().rank());
    }

    /**
     * In a running element: a rank whose log says it failed is failed (the element goes on with the others), and a
     * log of an earlier submission (written before this one's ranks_to_run.json) says nothing of this one: its rank waits.
     * Before, the one was pending and the other running.
     */
    @Test
    void aRunningElementsRanksAreJudgedByTheLogsOfThisSubmission() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(4, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 4));
        RecordingSlurm slurm = submitted(job);
        Path logs = job.loggingDir().resolve("a/logs");
        Files.createDirectories(logs);
        Files.writeString(logs.resolve("task_00000.log"), "INFO starting stage 'a' rank 0/4\nERROR rank 0 failed: bad line\n");
        Files.writeString(logs.resolve("task_00001.log"), "INFO starting stage 'a' rank 1/4\n");
        Path old = logs.resolve("task_00002.log");
        Files.writeString(old, "INFO starting stage 'a' rank 2/4\nERROR rank 2 failed: the last submission's\n");
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(0));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 0), "RUNNING", "None"));
        StatusReport.StageStatus sa = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(1, 2, 1), List.of(sa.running(), sa.pending(), sa.failed().size()));
        assertEquals(0, sa.failed().getFirst().rank());
        assertEquals(Map.of("InRunningElement", 2), sa.pendingReasons());

        // cancelled now: rank 2's old failure is not this submission's, and it never started in it
        slurm.queue.clear();
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 0), "CANCELLED", "None"));
        sa = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(0, 1), sa.failed().stream().map(StatusReport.FailedRank::rank).toList());
        assertEquals(2, sa.cancelled(), "ranks 2 and 3");
    }

    /** A relative logging_dir run from another folder: the folder is not there, and status says why that may be. */
    @Test
    void aLoggingDirThatIsNotThereIsSaidToBe() {
        Job job = TestJobs.job("rel", tmp.resolve("nowhere/logs"), TestJobs.slurm(1, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, StatusReport.collect(job, new RecordingSlurm()), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("(no such folder: nothing has run or been submitted with this"
                + " logging dir. If the job file's logging_dir is relative (the default, out/rel/logs, is), it is taken from the"
                + " folder the command runs in, here " + Path.of("").toAbsolutePath() + ": run the command from the folder the"
                + " job was run or submitted from.)"),
                out.toString(StandardCharsets.UTF_8));
    }

    /** The ranks of one element without logs of their own share its output: shown once, not once per rank. */
    @Test
    void theOutputOfAnElementIsShownOnceForItsRanks() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 2));
        RecordingSlurm slurm = submitted(job);
        ArrayTaskState.Key element = new ArrayTaskState.Key("100", 0);
        Path slurmOut = StageFiles.of(job, job.stage("a")).slurmLog(element);
        Files.createDirectories(slurmOut.getParent());
        Files.writeString(slurmOut, "sluice: stage a, ranks 0..1, on node1\nsluice: the worker was killed by signal 9 (exit status 137)\n");
        slurm.queue.add(new ArrayTaskState(element, "FAILED", "NonZeroExitCode"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, StatusReport.collect(job, slurm), new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.split("killed by signal 9", -1).length - 1, text);
        assertTrue(text.contains("stage a rank 1 failed: Slurm job 100_0 FAILED NonZeroExitCode; the last lines of " + slurmOut
                + " are above\n"), text);
    }

    /** A stats merge that failed is said, with where its output is; one cancelled (its stage failed) is not. */
    @Test
    void aStatsMergeThatFailedIsShown() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 1), TestJobs.stage("b", 1));
        RecordingSlurm slurm = submitted(job);
        // 100 runs a, 101 merges its stats; 102 runs b, 103 merges its stats
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("101", 0), "OUT_OF_MEMORY", "OutOfMemory"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("103", 0), "CANCELLED", "DependencyNeverSatisfied"));
        List<StatusReport.StageStatus> stages = StatusReport.collect(job, slurm);
        assertEquals("101 OUT_OF_MEMORY OutOfMemory", stages.get(0).statsMergeFailed());
        assertEquals(null, stages.get(1).statsMergeFailed());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, stages, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("stage a: its stats merge, Slurm job 101 OUT_OF_MEMORY"
                + " OutOfMemory, did not complete: " + job.loggingDir().resolve("a/stats.json") + " may lack the last ranks'"
                + " numbers"), out.toString(StandardCharsets.UTF_8));
    }

    /** Several reasons, most ranks first; an element suspended or held is pending for its state, not its reason. */
    @Test
    void pendingRanksAreCountedPerReason() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 8));
        RecordingSlurm slurm = submitted(job);
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 0), "PENDING", "Priority"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 1), "PENDING", "Priority"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 2), "SUSPENDED", "None"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 3), "PENDING", "None"));
        List<StatusReport.StageStatus> stages = StatusReport.collect(job, slurm);
        assertEquals(List.of("Priority", "SUSPENDED", "no reason given"), List.copyOf(stages.get(0).pendingReasons().keySet()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, stages, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("stage a: 8 ranks pending: 4 Priority (queued behind jobs of"
                + " higher priority); 2 SUSPENDED (suspended by an administrator or a preempting job); 2 no reason given\n"), out.toString());
    }

    /** Elements Slurm requeued are counted per element, with their restarts from squeue's --Format output. */
    @Test
    void requeuedElementsAreNamedWithHowOften() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 8));
        RecordingSlurm slurm = submitted(job);
        // elements 0..3 hold ranks 0-1, 2-3, 4-5, 6-7
        slurm.queue.addAll(SlurmCommands.parseQueue("""
                100|0|COMPLETED|None|0
                100|1|RUNNING|None|2
                100|2|PENDING|BeginTime|1
                100|3|RUNNING|None|0
                """));
        Completions.markComplete(job.loggingDir().resolve("a"), 0);
        Completions.markComplete(job.loggingDir().resolve("a"), 1);
        Files.createDirectories(job.loggingDir().resolve("a/logs"));
        for (int rank : new int[] {2, 3, 6, 7}) { // the running elements' ranks have started
            Files.writeString(job.loggingDir().resolve(String.format("a/logs/task_%05d.log", rank)),
                    "INFO starting stage 'a' rank " + rank + "/8\n");
        }
        List<StatusReport.StageStatus> stages = StatusReport.collect(job, slurm);
        assertEquals(Map.of(new ArrayTaskState.Key("100", 1), 2, new ArrayTaskState.Key("100", 2), 1), stages.get(0).requeued());
        assertEquals(List.of(2, 4, 2), List.of(stages.get(0).done(), stages.get(0).running(), stages.get(0).pending()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StatusReport.print(job, stages, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("stage a: Slurm requeued 2 array elements, 3 times in all"
                + " (100_1 x2, 100_2): by their own USR1 handler near the time limit (requeue: true), after a node"
                + " failure or preemption, or by scontrol requeue\n"), out.toString());
        // squeue's -o output (a Slurm whose --Format cannot be used) has no restarts
        assertEquals(List.of(new ArrayTaskState(new ArrayTaskState.Key("7", 0), "RUNNING", "None", 0)),
                SlurmCommands.parseQueue("7|0|RUNNING|None\n7|N/A|PENDING|None\n"));
    }

    @Test
    void elementsSqueueHasForgottenTakeTheirStateFromAccountingOrAreReportedEnded() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 3));
        RecordingSlurm slurm = submitted(job);
        Completions.markComplete(job.loggingDir().resolve("a"), 0);
        ArrayTaskState.Key timedOut = new ArrayTaskState.Key("100", 1);
        slurm.accounting.put(timedOut, new ArrayTaskState(timedOut, "TIMEOUT", "None"));
        // elements 1 and 2 ran: Slurm made their output files
        StageFiles files = StageFiles.of(job, job.stage("a"));
        for (ArrayTaskState.Key ran : List.of(timedOut, new ArrayTaskState.Key("100", 2))) {
            Files.createDirectories(files.slurmLog(ran).getParent());
            Files.writeString(files.slurmLog(ran), "sluice: stage a\n");
        }
        List<StatusReport.FailedRank> failed = StatusReport.collect(job, slurm).getFirst().failed();
        assertEquals(List.of("TIMEOUT", "ended"), failed.stream().map(StatusReport.FailedRank::state).toList());

        // an element Slurm has forgotten that never made its output file never started (cancelled while it
        // waited, on a cluster without accounting): before, it was reported as a failed rank
        Files.delete(files.slurmLog(new ArrayTaskState.Key("100", 2)));
        StatusReport.StageStatus forgotten = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(1, 1), List.of(forgotten.failed().size(), forgotten.cancelled()));
        Files.writeString(files.slurmLog(new ArrayTaskState.Key("100", 2)), "sluice: stage a\n");

        // sacct's state of an element Slurm cancelled for a failed dependency: counted as such, not as a failure
        ArrayTaskState.Key dependent = new ArrayTaskState.Key("100", 2);
        slurm.accounting.put(dependent, new ArrayTaskState(dependent, "CANCELLED by 0", "DependencyNeverSatisfied"));
        StatusReport.StageStatus a = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(1, 1), List.of(a.failed().size(), a.cancelled()));

        // one the user cancelled (launcher cancel) while it waited: cancelled too, not failed; before, failed
        slurm.accounting.put(timedOut, new ArrayTaskState(timedOut, "CANCELLED by 1000", "Dependency"));
        a = StatusReport.collect(job, slurm).getFirst();
        assertEquals(List.of(0, 2), List.of(a.failed().size(), a.cancelled()));
    }

    @Test
    void aCompletedElementWhoseMarkerWasRemovedSaysSo() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 1));
        RecordingSlurm slurm = submitted(job);
        ArrayTaskState.Key element = new ArrayTaskState.Key("100", 0);
        Path out = StageFiles.of(job, job.stage("a")).slurmLog(element);
        Files.createDirectories(out.getParent());
        Files.writeString(out, "sluice: stage a, ranks 0..0\n");
        slurm.queue.add(new ArrayTaskState(element, "COMPLETED", "None"));
        StatusReport.FailedRank f = StatusReport.collect(job, slurm).getFirst().failed().getFirst();
        assertEquals("COMPLETED, but the rank's completion marker is missing (removed since?)", f.state());
    }

    @Test
    void sacctRecordsOfSeveralElementsAreReadForEach() {
        Map<ArrayTaskState.Key, ArrayTaskState> states = SlurmCommands.parseAccounting(
                "4711_0|COMPLETED|None\n4711_[1-3,5%2]|CANCELLED by 1000|None\n4712|FAILED|NonZeroExitCode\n");
        assertEquals(List.of("COMPLETED", "CANCELLED by 1000", "CANCELLED by 1000", "CANCELLED by 1000", "CANCELLED by 1000"),
                java.util.stream.IntStream.of(0, 1, 2, 3, 5).mapToObj(i -> states.get(new ArrayTaskState.Key("4711", i)).state()).toList());
        assertEquals(5, states.size(), "4712 is not an array element");
    }

    @Test
    void stderrRedirectedBySbatchArgsIsWhereTheFailureIsLookedFor() {
        ArrayTaskState.Key element = new ArrayTaskState.Key("4711", 9);
        Job redirected = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 0, 1001, false, null,
                Map.of("error", "/logs/%x/%A_%a.err")), TestJobs.stage("a", 1));
        assertEquals(java.util.Optional.empty(), StatusReport.stderrFile(redirected, redirected.stages().getFirst(), element), "%x is not known here");
        Job plain = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 0, 1001, false, null,
                Map.of("error", "/logs/100%%/%A_%a.err")), TestJobs.stage("a", 1));
        assertEquals(java.util.Optional.of(Path.of("/logs/100%/4711_9.err")), StatusReport.stderrFile(plain, plain.stages().getFirst(), element));
    }

    @Test
    void pendingReasonsSayWhatTheyMeanForTheJob() {
        assertEquals("Dependency (waits for the jobs it depends on: earlier stages, or an earlier part of its array)", StatusReport.explainPending("Dependency"));
        assertTrue(StatusReport.explainPending("PartitionConfig").startsWith("PartitionConfig (will not start: "));
        assertEquals("ReqNodeNotAvail, UnavailableNodes:node2 (a node it needs is down, drained or reserved)",
                StatusReport.explainPending("ReqNodeNotAvail, UnavailableNodes:node2"));
        assertEquals("PartitionTimeLimit (will not start: its time exceeds the partition's limit; lower slurm.time)",
                StatusReport.explainPending("PartitionTimeLimit"));
        assertEquals("AssocGrpCpuLimit", StatusReport.explainPending("AssocGrpCpuLimit"), "an unknown reason as Slurm gives it");
    }

    @Test
    void aLogTailLeavesOutTheJavaStackTrace(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path log = dir.resolve("task_00001.log");
        Files.writeString(log, """
                2026-11-27 17:39:49.409 ERROR rank 1: rank 1 failed: out/00001.json: malformed stats file (truncated)
                io.sluice.pipeline.Pipeline$StepFailure: out/00001.json: malformed stats file (truncated)
                	at io.sluice.pipeline.Pipeline.finish(Pipeline.java:120)
                Caused by: java.io.IOException: out/00001.json: malformed stats file (truncated)
                	at io.sluice.stats.MergeStats.readDict(MergeStats.java:307)
                	at java.base/java.lang.Thread.run(Thread.java:1474)
                Caused by: com.fasterxml.jackson.core.io.JsonEOFException: Unexpected end-of-input
                	... 12 more
                """);
        // before, the tail showed the exception's own line and its cause, in Java's words (a step's failure, whose class
        // name ends in Failure, until later)
        assertEquals(List.of("2026-11-27 17:39:49.409 ERROR rank 1: rank 1 failed: out/00001.json: malformed stats file"
                + " (truncated)"), StatusReport.tail(log, 10));
    }
}
