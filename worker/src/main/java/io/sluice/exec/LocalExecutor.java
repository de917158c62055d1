package io.sluice.exec;

import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.Preflight;
import java.io.IOException;
import java.io.PrintStream;
import java.util.BitSet;
import java.util.List;

/**
 * Runs a whole job on this machine, stage after stage, with datatrove's LocalPipelineExecutor
 * semantics: {@code tasks} ranks per stage, {@code workers} at a time as threads of this JVM,
 * completed ranks skipped, a stage runs only when the stages it depends on are complete, and
 * {@code local_tasks}/{@code local_rank_offset} restrict the run to a block of ranks.
 */
public final class LocalExecutor {
    private final Job job;
    private final PrintStream console;

    public LocalExecutor(Job job, PrintStream console) {
        this.job = job;
        this.console = console;
    }

    /**
     * Runs the job (or only {@code onlyStage}, a stage or a {@code minhash:} block, when not null); true when
     * every rank asked for completed.
     */
    public boolean run(String onlyStage) throws IOException {
        // an unknown name is an error, not a run of nothing
        List<Job.Stage> only = onlyStage == null ? job.stages() : job.stagesNamed(onlyStage);
        Preflight.check(job);
        StageRunner runner = new StageRunner(job, console);
        runner.writeJob();
        for (Job.Stage stage : job.stages()) {
            if (!only.contains(stage)) {
                continue;
            }
            String waitsFor = incompleteDependency(runner, stage);
            if (waitsFor != null && job.localTasks() >= 0) {
                // a block of ranks (local_tasks): other runs make the rest of the input; this run's part is done
                console.printf("[%s] not started: it depends on %s; run again once every block has run%n",
                        stage.name(), waitsFor);
                return true;
            }
            if (waitsFor != null) {
                throw new JobException("stage '" + stage.name() + "' depends on " + waitsFor);
            }
            if (Completions.completedRanks(runner.stageDir(stage)).cardinality() < stage.tasks()) {
                runner.printNotes(stage);
            }
            int first = job.localTasks() < 0 ? 0 : job.localRankOffset();
            int count = job.localTasks() < 0 ? stage.tasks() : job.localTasks();
            int workers = stage.workers() > 0 ? stage.workers() : Runtime.getRuntime().availableProcessors();
            StageRunner.Result r = runner.runBlock(stage, first, count, workers);
            if (!r.ok()) {
                console.printf("[%s] FAILED: %d of %d rank(s) failed; logs in %s%n", stage.name(),
                        r.failures().size(), r.ran(), runner.stageDir(stage).resolve("logs"));
                r.failures().forEach(f -> console.println("  " + f));
                return false;
            }
            console.printf("[%s] done: %d rank(s) run, %d skipped; stats in %s%n", stage.name(), r.ran(), r.skipped(),
                    runner.stageDir(stage).resolve("stats.json"));
        }
        return true;
    }

    /** What a stage waits for, as "'clean', which has 2 of 3 ranks not complete", or null when nothing. */
    private String incompleteDependency(StageRunner runner, Job.Stage stage) throws IOException {
        for (String dep : job.upstreamOf(stage)) {
            Job.Stage d = job.stage(dep);
            BitSet done = Completions.completedRanks(runner.stageDir(d));
            if (done.cardinality() < d.tasks()) {
                return "'" + dep + "', which has " + (d.tasks() - done.cardinality()) + " of " + d.tasks() + " ranks not complete";
            }
        }
        return null;
    }
}
