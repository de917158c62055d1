package io.sluice.exec;

import io.sluice.io.Completions;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.Preflight;
import java.io.IOException;
import java.io.PrintStream;
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
        // Ctrl-C or a kill (SIGINT, SIGTERM) ended the JVM without a word: say what is kept and how to go on
        Thread interrupted = new Thread(() -> console.printf("%n[%s] interrupted: %s%n", job.name(), job.skipCompleted()
                ? "the ranks that completed are kept, and the others start over when the job runs again. Run the same"
                        + " command to resume"
                : "with skip_completed: false every rank runs again on the next run"));
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            return runStages(onlyStage);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs
            }
        }
    }

    private boolean runStages(String onlyStage) throws IOException {
        // an unknown name is an error, not a run of nothing
        List<Job.Stage> only = onlyStage == null ? job.stages() : job.stagesNamed(onlyStage);
        Preflight.check(job);
        StageRunner runner = new StageRunner(job, console);
        runner.writeJob();
        for (Job.Stage stage : job.stages()) {
            if (!only.contains(stage)) {
                continue;
            }
            int first = job.localTasks() < 0 ? 0 : job.localRankOffset();
            int count = job.localTasks() < 0 ? stage.tasks() : job.localTasks();
            String waitsFor = runner.incompleteDependency(stage, -1, 0);
            if (waitsFor != null && job.localTasks() >= 0 && runner.incompleteDependency(stage, first, count) == null) {
                // a block of ranks (local_tasks) whose own part of the input is made: other runs make the rest
                console.printf("[%s] not started: it depends on %s; run again once every block has run%n",
                        stage.name(), waitsFor);
                return true;
            }
            if (waitsFor != null) {
                throw new JobException("stage '" + stage.name() + "' depends on " + waitsFor);
            }
            if (!Completions.allComplete(runner.stageDir(stage), stage.tasks())) {
                runner.printNotes(stage);
            } else {
                runner.noteFilesNotInPlan(stage); // complete, and files added to its input since would go unread
                runner.noteGoneOutputs(stage);
            }
            int workers = stage.workers() > 0 ? stage.workers() : Runtime.getRuntime().availableProcessors();
            runner.prepareStage(stage, first, count);
            StageRunner.Result r = runner.runBlock(stage, first, count, workers);
            if (!r.ok()) {
                console.printf("[%s] FAILED: %d of %d rank(s) failed; logs in %s%n", stage.name(),
                        r.failures().size(), r.ran(), runner.stageDir(stage).resolve("logs"));
                r.failures().forEach(f -> console.println("  " + f));
                return false;
            }
            console.printf("[%s] done: %d rank(s) run, %d skipped; stats in %s%n", stage.name(), r.ran(), r.skipped(),
                    runner.stageDir(stage).resolve("stats.json"));
            if (r.ran() > 0) { // said when the ranks ran, not again on every run that skips them
                printCounterNotes(stage, r.stats()); // the sums runBlock just wrote, not read and written again
            }
        }
        return true;
    }

    /** {@link PipelineStats#notes}, as the stage ends: before, only stats.json and the task logs said them. */
    private void printCounterNotes(Job.Stage stage, PipelineStats stats) {
        for (String note : stats.notes()) {
            console.printf("[%s] note: %s%n", stage.name(), note);
        }
    }
}
