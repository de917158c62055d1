package io.sluice.exec;

import io.sluice.io.Completions;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.Preflight;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
            String waitsFor = incompleteDependency(runner, stage, -1, 0);
            if (waitsFor != null && job.localTasks() >= 0 && incompleteDependency(runner, stage, first, count) == null) {
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

    /**
     * A filter that dropped every document for one reason is most often set up wrong (url_filter's url_key
     * pointing where the corpus has no URL, a language list without the corpus's language): said on the
     * console, where before only the task log had a hint and the job ended "done" with nothing kept. Then the
     * documents without a URL, and what the reader skipped.
     */
    private void printCounterNotes(Job.Stage stage, PipelineStats stats) {
        // datatrove stops at the first document without a URL; Sluice goes on, and says so here: one line for
        // the steps that found the same documents without one (the stats blocks of a stage, each two groups),
        // naming the counters of each step, which a block's groups decide
        Map<String, Map<String, Set<String>>> noUrl = new LinkedHashMap<>(); // count -> step -> counters
        for (io.sluice.pipeline.StepStats step : stats.steps()) {
            long total = step.get("total");
            for (Map.Entry<String, Long> c : step.counters().entrySet()) {
                String key = c.getKey();
                if (total > 0 && key.startsWith("dropped_") && c.getValue() == total) {
                    console.printf("[%s] note: %s dropped all %d documents it saw as '%s'; its task logs say more%n",
                            stage.name(), step.name(), total, key.substring("dropped_".length()));
                } else if (c.getValue() > 0 && (key.equals("dropped_missing_url") || key.startsWith("no_url_"))) {
                    noUrl.computeIfAbsent(String.format("%,d of %,d documents", c.getValue(), total), k -> new LinkedHashMap<>())
                            .computeIfAbsent(step.name(), k -> new LinkedHashSet<>()).add(key);
                }
            }
        }
        noUrl.forEach((count, byStep) -> console.printf("[%s] note: no URL in %s, counted by %s; url_key says where it"
                + " is looked for (the task logs name the key a document holds one under, if any)%n", stage.name(), count,
                stepsAndCounters(byStep)));
        // what the reader skipped: before, only stats.json and the task logs said it (datatrove warns on its console)
        for (String note : stats.skippedInputNotes()) {
            console.printf("[%s] note: %s%n", stage.name(), note);
        }
    }

    /** "doc_stats and line_stats (no_url_fqdn), word_stats (no_url_fqdn, no_url_suffix)": steps alike together. */
    private static String stepsAndCounters(Map<String, Set<String>> byStep) {
        Map<Set<String>, List<String>> stepsByCounters = new LinkedHashMap<>();
        byStep.forEach((step, counters) -> stepsByCounters.computeIfAbsent(counters, k -> new ArrayList<>()).add(step));
        List<String> parts = new ArrayList<>();
        stepsByCounters.forEach((counters, steps) -> parts.add(inWords(steps) + " (" + String.join(", ", counters) + ")"));
        return String.join(", ", parts);
    }

    /** "a", "a and b", "a, b and c". */
    private static String inWords(List<String> names) {
        int n = names.size();
        return n == 1 ? names.getFirst() : String.join(", ", names.subList(0, n - 1)) + " and " + names.get(n - 1);
    }

    /**
     * What a stage waits for, as "'clean', which has 2 of 3 ranks not complete", or null when nothing; only
     * ranks {@code first .. first + count - 1} of each stage it waits for are asked about when {@code first}
     * is not -1.
     */
    private String incompleteDependency(StageRunner runner, Job.Stage stage, int first, int count) throws IOException {
        for (String dep : job.upstreamOf(stage)) {
            Job.Stage d = job.stage(dep);
            BitSet done = Completions.completedRanks(runner.stageDir(d));
            int from = first < 0 ? 0 : first;
            int to = first < 0 ? d.tasks() : Math.min(d.tasks(), first + count);
            int missing = (to - from) - done.get(from, Math.max(from, to)).cardinality();
            if (missing > 0) {
                return "'" + dep + "', which has " + missing + " of " + (to - from) + " ranks not complete";
            }
        }
        return null;
    }
}
