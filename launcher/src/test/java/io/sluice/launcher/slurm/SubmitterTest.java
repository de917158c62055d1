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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SubmitterTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final RecordingSlurm slurm = new RecordingSlurm();
    private final Submitter submitter = new Submitter(slurm, new PrintStream(printed, true, StandardCharsets.UTF_8));

    private List<Submitter.StagePlan> plan(Job job) {
        return Submitter.plan(job, WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN),
                job.loggingDir().resolve("job.json"));
    }

    private String dryRunOutput(Job job) {
        submitter.dryRun(plan(job), stage -> { });
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theRanksPerArrayElementAreThoseOfItsBlocks() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(4, 100, 1001, false, null, Map.of()),
                TestJobs.stage("clean", 6), TestJobs.stage("merge", 1));
        String out = dryRunOutput(job);
        assertTrue(out.contains("stage clean: 6 of 6 ranks to run, 2 array elements of up to 4 ranks,"), out);
        // before: "1 array element of 4 ranks", local_tasks rather than the stage's one rank
        assertTrue(out.contains("stage merge: 1 of 1 ranks to run, 1 array element of 1 rank,"), out);
        // the script's last block stops at the stage's last rank; before, its log said "ranks 4..7" of 6, and the
        // merge element "ranks 0..3"
        String clean = out.substring(out.indexOf("clean/slurm/launch_script.slurm"));
        assertTrue(clean.contains("first_rank=$(( 0 + block * 4 ))\nranks=$(( 6 - first_rank < 4 ? 6 - first_rank : 4 ))\n"), clean);
        String merge = out.substring(out.indexOf("merge/slurm/launch_script.slurm"));
        assertTrue(merge.contains("first_rank=$(( 0 + block * 4 ))\nranks=$(( 1 - first_rank < 4 ? 1 - first_rank : 4 ))\n"), merge);
    }

    /**
     * A merge_stats stage whose stats run again is submitted again: with a stats rank to run in this submission, or
     * once per-rank stats newer than its completion are there (the stats ran from another job). Before, it was "complete,
     * not submitted" and metric.json kept the earlier run's sums.
     */
    @Test
    void aMergeStageIsSubmittedAgainWhenTheStatsItMergesRanAgain() throws IOException {
        Path statsOut = tmp.resolve("stats");
        Job.Stage merge = new Job.Stage("merge", 1, 1, List.of("stats"),
                List.of(new Job.StepSpec("merge_stats", Map.of("input", statsOut.toString()), "merge")));
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 10, 1001, false, null, Map.of()),
                TestJobs.stage("stats", 2), merge);
        Path rankFile = Files.createDirectories(statsOut.resolve("summary/length")).resolve("00001.json");
        Files.writeString(rankFile, "{\"summary\": {\"total\": 3, \"n\": 1, \"mean\": 3.0}}");
        Completions.markComplete(job.loggingDir().resolve("stats"), 0);
        Completions.markComplete(job.loggingDir().resolve("stats"), 1);
        Completions.markComplete(job.loggingDir().resolve("merge"), 0);
        Files.setLastModifiedTime(rankFile, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(Completions.marker(job.loggingDir().resolve("merge"), 0)).toMillis() - 10_000));
        assertTrue(dryRunOutput(job).contains("stage merge: its 1 rank complete, would not be submitted"), printed.toString());

        Completions.unmark(job.loggingDir().resolve("stats"), 1);
        printed.reset();
        assertTrue(dryRunOutput(job).contains("stage merge: 1 of 1 ranks to run"), printed.toString());

        Completions.markComplete(job.loggingDir().resolve("stats"), 1);
        Files.setLastModifiedTime(rankFile, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(Completions.marker(job.loggingDir().resolve("merge"), 0)).toMillis() + 10_000));
        printed.reset();
        assertTrue(dryRunOutput(job).contains("stage merge: 1 of 1 ranks to run"), printed.toString());
    }

    @Test
    void dryRunOfA2500RankStageWithMaxArraySize1001PrintsThreeSubmissionsAndWritesNothing() throws IOException {
        Job job = TestJobs.job("big", tmp.resolve("logs"), TestJobs.slurm(1, 100, 1001, false, null, Map.of()),
                TestJobs.stage("tokenize", 2500), TestJobs.stage("merge", 1));
        String out = dryRunOutput(job);
        List<String> sbatch = out.lines().filter(l -> l.startsWith("sbatch ") && !l.contains("stats_merge")).toList();
        String script = job.loggingDir().resolve("tokenize/slurm/launch_script.slurm").toString();
        assertEquals(List.of(
                "sbatch --parsable '--array=0-1000%100' " + script + " 0",
                "sbatch --parsable '--array=0-1000%100' '--dependency=afterany:<tokenize submission 0>'"
                        + " '--kill-on-invalid-dep=yes' " + script + " 1001",
                "sbatch --parsable '--array=0-497%100' '--dependency=afterany:<tokenize submission 1>'"
                        + " '--kill-on-invalid-dep=yes' " + script + " 2002",
                "sbatch --parsable '--array=0-0%100' '--dependency=afterok:<tokenize>' '--kill-on-invalid-dep=yes' "
                        + job.loggingDir().resolve("merge/slurm/launch_script.slurm") + " 0"), sbatch);
        assertTrue(out.contains("stage tokenize: 2500 of 2500 ranks to run, 2500 array elements of 1 rank, 3 submissions"),
                out);
        assertTrue(out.contains("#SBATCH --array=0-1000%100\n"), out);
        assertTrue(out.contains("sbatch --parsable '--dependency=afterok:<tokenize>' '--kill-on-invalid-dep=yes' "
                + job.loggingDir().resolve("tokenize/slurm/stats_merge.slurm") + "\n"), out);
        assertTrue(out.contains("first_rank=$(( 0 + block * 1 ))\n"), out);
        assertTrue(slurm.submitted.isEmpty());
        assertFalse(Files.exists(job.loggingDir()), "a dry run writes nothing");
    }

    @Test
    void onlyPendingRanksAreSubmittedAndCompleteStagesAreNeitherSubmittedNorWaitedFor() throws IOException {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(2, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 6), TestJobs.stage("b", 3), TestJobs.stage("c", 1, "a", "b"));
        for (int r : new int[] {0, 2, 3, 4}) {
            Completions.markComplete(job.loggingDir().resolve("a"), r);
        }
        for (int r = 0; r < 3; r++) {
            Completions.markComplete(job.loggingDir().resolve("b"), r);
        }
        List<String> prepared = new ArrayList<>();
        Map<String, List<String>> ids = submitter.submit(plan(job), s -> prepared.add(s.name()));

        assertEquals(Map.of("a", List.of("100"), "c", List.of("102")), ids);
        assertEquals(List.of("a"), prepared, "c waits for a, so its input is not final at submit time");
        RecordingSlurm.Call a = slurm.submitted.get(0);
        assertEquals(List.of("--array=0-0%10"), a.options());
        RecordingSlurm.Call stats = slurm.submitted.get(1);
        assertEquals(List.of("--dependency=afterok:100", "--kill-on-invalid-dep=yes"), stats.options());
        assertTrue(Files.readString(stats.script()).contains("#SBATCH --array=0\n"));
        assertTrue(Files.readString(stats.script()).endsWith(" --workers 1 --first-rank 0 --ranks 0\n"));
        RecordingSlurm.Call c = slurm.submitted.get(2);
        assertEquals(List.of("--array=0-0%10", "--dependency=afterok:100", "--kill-on-invalid-dep=yes"), c.options());

        StageFiles fa = StageFiles.of(job, job.stage("a"));
        StageFiles.RanksToRun ranks = fa.readRanksToRun().orElseThrow();
        assertEquals(List.of(1, 5), ranks.ranks());
        assertEquals(List.of(new ArrayPlan.Block(1, 5)), ranks.blocks());
        assertEquals(new StageFiles.JobIds(List.of(new StageFiles.Submitted("100", 0, 1)), "101"),
                fa.readJobIds().orElseThrow());
        assertTrue(Files.readString(fa.script()).contains("blocks=(\n  1:5\n)"));
        assertFalse(Files.exists(StageFiles.of(job, job.stage("b")).script()));
        String out = printed.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("stage b: all 3 ranks complete, not submitted"), out);
        assertTrue(out.contains("stage c: 1 of 1 ranks to run") && out.contains("-> Slurm job 102 (after 100), stats merge 103"),
                out);
    }

    @Test
    void aSubmissionWhileEarlierJobsAreQueuedIsRefusedAndCancelStopsThem() {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 10, 1001, false, null, Map.of()),
                TestJobs.stage("a", 2));
        submitter.submit(plan(job), s -> { });
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 0), "COMPLETED", "None"));
        slurm.queue.add(new ArrayTaskState(new ArrayTaskState.Key("100", 1), "RUNNING", "None"));
        SlurmException e = assertThrows(SlurmException.class, () -> submitter.checkNothingActive(job));
        assertEquals("job 'j' still has Slurm jobs queued or running: 100. Wait for them (`launcher status`) or "
                + "`launcher cancel` first.", e.getMessage());
        assertEquals(List.of("100"), submitter.cancel(job));
        assertEquals(List.of("100"), slurm.cancelled);
    }

    @Test
    void insideAnAllocationSlurmVariablesDoNotReachSbatch() {
        Map<String, String> env = Map.of("SLURM_CONF", "/etc/slurm.conf", "SLURM_JOB_ID", "5",
                "SLURM_CPUS_PER_TASK", "8", "SLURM_MEM_PER_NODE", "1000", "SBATCH_PARTITION", "gpu",
                "SLURM_CPU_BIND", "map_cpu:1", "PATH", "/usr/bin", "HOME", "/root");
        assertEquals(Map.of("SLURM_CONF", "/etc/slurm.conf", "PATH", "/usr/bin", "HOME", "/root"),
                SlurmCommands.cleanEnvironment(env));
    }

    @Test
    void aSubmissionThatArrayParallelismPutsLaterWaitsForTheEarlierOneToEnd() {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 2, 10, false, null, Map.of()),
                TestJobs.stage("a", 30));
        submitter.submit(plan(job), s -> { });
        assertEquals(List.of("--array=0-9%2"), slurm.submitted.get(0).options());
        assertEquals(List.of("--array=0-9%2", "--dependency=afterany:100", "--kill-on-invalid-dep=yes"),
                slurm.submitted.get(1).options());
        assertEquals(List.of("--array=0-9%2", "--dependency=afterany:101", "--kill-on-invalid-dep=yes"),
                slurm.submitted.get(2).options());
    }

    @Test
    void aSubmissionThatFailsHalfWaySaysWhatSlurmAlreadyHasAndWhatToDo() {
        Job job = TestJobs.job("j", tmp.resolve("logs"), TestJobs.slurm(1, 0, 1001, false, null, Map.of()),
                TestJobs.stage("a", 2), TestJobs.stage("b", 1));
        slurm.failAt = 2; // a's array and stats merge went through; b's array is refused
        slurm.failure = "sbatch: error: Batch job submission failed: Invalid job array specification";
        SlurmException e = assertThrows(SlurmException.class, () -> submitter.submit(plan(job), s -> { }));
        assertTrue(e.getMessage().contains("Invalid job array specification\n(an array of 2 elements: is slurm.max_array_size"
                + " above the cluster's MaxArraySize?"), e.getMessage());
        assertTrue(e.getMessage().contains("\nalready submitted, and left queued or running: stage a (100, 101)\n"
                + "`launcher cancel JOB` stops them"), e.getMessage());

        // the stats merge of the first stage refused: its array is queued all the same
        RecordingSlurm second = new RecordingSlurm();
        second.failAt = 1;
        second.failure = "sbatch: error: invalid partition";
        SlurmException f = assertThrows(SlurmException.class, () -> new Submitter(second, new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).submit(plan(job), s -> { }));
        assertTrue(f.getMessage().contains("already submitted, and left queued or running: stage a (100)"), f.getMessage());
    }
}
