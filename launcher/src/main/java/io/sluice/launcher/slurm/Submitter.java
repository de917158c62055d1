package io.sluice.launcher.slurm;

import io.sluice.exec.StageRunner;
import io.sluice.job.Job;
import io.sluice.job.JobException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code launcher submit}: one sbatch array job (or several, past {@code max_array_size}) per stage,
 * for the ranks that have no completion marker, chained so that a stage starts only after the stages
 * it depends on succeeded ({@code --dependency=afterok}). {@code --kill-on-invalid-dep=yes} makes
 * Slurm cancel a dependent job when a rank it waits for fails, instead of leaving it pending forever.
 * A stage with nothing left to run is not submitted, and no stage waits for it.
 *
 * <p>After its array jobs, each stage gets a one-CPU stats merge job ({@code afterok} on them) that
 * writes {@code <stage>/stats.json} once every rank is done; later stages do not wait for it.
 */
public final class Submitter {

    /** What one stage would submit: computed without touching Slurm or the logging dir. */
    public record StagePlan(Job.Stage stage, StageFiles files, ArrayPlan plan, List<String> dependsOn,
                            String script, List<String> sbatchOptions, String statsScript,
                            List<String> statsOptions) {

        /** The sbatch arguments of submission {@code s}, before the dependency. */
        List<String> arguments(ArrayPlan.Submission s) {
            List<String> args = new ArrayList<>();
            args.add("--array=" + s.arraySpec());
            args.addAll(sbatchOptions);
            return args;
        }
    }

    private final Slurm slurm;
    private final PrintStream out;

    public Submitter(Slurm slurm, PrintStream out) {
        this.slurm = slurm;
        this.out = out;
    }

    /** Plans every stage of {@code job}; {@code jobJson} is the resolved job the workers read. */
    public static List<StagePlan> plan(Job job, WorkerCommand worker, Path jobJson) {
        List<StagePlan> plans = new ArrayList<>();
        for (int i = 0; i < job.stages().size(); i++) {
            Job.Stage stage = job.stages().get(i);
            SlurmOptions s = SlurmOptions.of(job, stage);
            StageFiles files = StageFiles.of(job, stage);
            // skip_completed: false runs every rank again (the worker does not skip them either)
            Set<Integer> completed = job.skipCompleted() ? files.completedRanks() : Set.of();
            completed = withoutOutdatedMerges(job, stage, files, completed, plans);
            ArrayPlan plan = ArrayPlan.of(stage.tasks(), completed, s.localTasks(), s.arrayParallelism(),
                    s.maxArraySize());
            String script = "";
            List<String> options = List.of();
            String statsScript = "";
            List<String> statsOptions = List.of();
            if (!plan.nothingToRun()) {
                SbatchOptions sbatch = SbatchOptions.forStage(job, stage, files.slurmDir());
                script = LaunchScript.render(job, stage, plan, sbatch, worker, jobJson);
                options = sbatch.commandLineArguments();
                SbatchOptions stats = SbatchOptions.forStatsMerge(job, stage, files.slurmDir());
                statsScript = LaunchScript.renderStatsMerge(job, stage, stats, worker, jobJson);
                statsOptions = stats.commandLineArguments();
            }
            plans.add(new StagePlan(stage, files, plan, job.upstreamOf(stage), script, options, statsScript,
                    statsOptions));
        }
        return plans;
    }

    /**
     * {@code completed} without the ranks of a merge_stats stage that will merge again: all of them when a stage it
     * depends on has ranks to run in this submission (a completion deleted: their new per-rank files change every
     * merged folder), else those older than a per-rank file of their input ({@link StageRunner#outdatedMerges}). Before,
     * the merge was "complete, not submitted", and metric.json kept the earlier run's sums. The worker, finding the
     * rank's marker older than its input, merges again too.
     */
    private static Set<Integer> withoutOutdatedMerges(Job job, Job.Stage stage, StageFiles files, Set<Integer> completed,
                                                      List<StagePlan> earlier) {
        if (completed.isEmpty() || stage.steps().stream().noneMatch(s -> s.type().equals("merge_stats"))) {
            return completed;
        }
        List<String> upstream = job.upstreamOf(stage);
        if (earlier.stream().anyMatch(p -> upstream.contains(p.stage().name()) && !p.plan().nothingToRun())) {
            return Set.of();
        }
        java.util.BitSet done = new java.util.BitSet();
        completed.forEach(done::set);
        java.util.BitSet outdated;
        try {
            outdated = StageRunner.outdatedMerges(stage, files.stageDir(), done).ranks();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the input of stage '" + stage.name() + "'", e);
        }
        Set<Integer> kept = new java.util.TreeSet<>(completed);
        outdated.stream().forEach(kept::remove);
        return kept;
    }

    /**
     * The plans of the stages {@code only} ({@code submit --stage}). A stage they depend on that is not among
     * them must be complete: its submission would be what they wait for, and submit, which refuses while any of
     * the job's arrays are queued, never waits on an earlier one.
     */
    public static List<StagePlan> only(List<StagePlan> plans, List<Job.Stage> only) {
        List<String> names = only.stream().map(Job.Stage::name).toList();
        List<StagePlan> kept = plans.stream().filter(p -> names.contains(p.stage().name())).toList();
        for (StagePlan p : kept) {
            for (String dep : p.dependsOn()) {
                if (names.contains(dep)) {
                    continue;
                }
                StagePlan d = plans.stream().filter(q -> q.stage().name().equals(dep)).findFirst().orElseThrow();
                Set<Integer> done = d.files().completedRanks();
                long missing = java.util.stream.IntStream.range(0, d.stage().tasks()).filter(r -> !done.contains(r)).count();
                if (missing > 0) {
                    throw new JobException("stage '" + p.stage().name() + "' depends on '" + dep + "', which has " + missing
                            + " of " + d.stage().tasks() + " ranks not complete: let them finish if they are queued or running"
                            + " (launcher status), or, once none of the job's arrays is queued, submit with --stage " + dep
                            + " first or without --stage");
                }
            }
        }
        return kept;
    }

    /**
     * Refuses to submit while jobs of an earlier submission are still queued or running: they would
     * run the same ranks twice.
     */
    public void checkNothingActive(Job job) {
        List<String> active = activeJobIds(job);
        if (!active.isEmpty()) {
            throw new SlurmException("job '" + job.name() + "' still has Slurm jobs queued or running: "
                    + String.join(", ", active) + ". Wait for them (`launcher status`) or `launcher cancel` first.");
        }
    }

    /** {@code launcher cancel}: scancels the job's Slurm jobs that are still queued or running; returns their ids. */
    public List<String> cancel(Job job) {
        List<String> active = activeJobIds(job);
        slurm.cancel(active);
        return active;
    }

    /** Job ids recorded in the stages' {@code job_ids.json} that Slurm still has queued or running. */
    private List<String> activeJobIds(Job job) {
        List<String> ids = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            StageFiles.of(job, stage).readJobIds().ifPresent(j -> ids.addAll(j.ids()));
        }
        Set<String> active = slurm.queue(ids).stream().filter(t -> !t.ended())
                .map(t -> t.key().jobId()).collect(Collectors.toCollection(LinkedHashSet::new));
        return List.copyOf(active);
    }

    /**
     * Writes each stage's files and submits it; returns the job ids per submitted stage.
     *
     * @param prepare called, before its sbatch, for each stage none of whose dependencies is submitted
     *                now, so its input is final (the launcher computes the shard plan there once)
     */
    public Map<String, List<String>> submit(List<StagePlan> plans, Consumer<Job.Stage> prepare) {
        Map<String, List<String>> submitted = new LinkedHashMap<>();
        Map<String, List<String>> queued = new LinkedHashMap<>(); // every id sbatch returned, stats merges too
        try {
            submitStages(plans, prepare, submitted, queued);
        } catch (RuntimeException e) {
            if (queued.isEmpty() && !(e instanceof SlurmException)) {
                throw e; // e.g. a job error found while planning the first stage: nothing to explain
            }
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new SlurmException(message + explainPartial(plans, queued, message));
        }
        return submitted;
    }

    /**
     * What a failed submission leaves: the stages Slurm already took keep running, and the user has to
     * choose between cancelling them and submitting the rest once the cause is fixed.
     */
    private static String explainPartial(List<StagePlan> plans, Map<String, List<String>> queued, String error) {
        StringBuilder b = new StringBuilder();
        if (error.contains("Invalid job array specification")) {
            int largest = plans.stream().flatMap(p -> p.plan().submissions().stream()).mapToInt(ArrayPlan.Submission::size)
                    .max().orElse(0);
            b.append("\n(an array of ").append(largest).append(" elements: is slurm.max_array_size above the cluster's"
                    + " MaxArraySize? `scontrol show config | grep MaxArraySize`)");
        }
        if (queued.isEmpty()) {
            b.append("\nnothing was submitted");
        } else {
            b.append("\nalready submitted, and left queued or running: ").append(queued.entrySet().stream()
                    .map(e -> "stage " + e.getKey() + " (" + String.join(", ", e.getValue()) + ")")
                    .collect(Collectors.joining(", ")));
            b.append("\n`launcher cancel JOB` stops them; or fix the cause, wait for them to end (`launcher status JOB`)"
                    + " and `launcher submit JOB` again: completed ranks are skipped");
        }
        return b.toString();
    }

    private void submitStages(List<StagePlan> plans, Consumer<Job.Stage> prepare, Map<String, List<String>> submitted,
                              Map<String, List<String>> queued) {
        for (StagePlan p : plans) {
            if (p.plan().nothingToRun()) {
                out.printf("stage %s: %s complete, not submitted%n", p.stage().name(), allRanks(p.plan().tasks()));
                continue;
            }
            List<String> after = waitFor(p, submitted);
            if (after.isEmpty()) {
                prepare.accept(p.stage());
            }
            p.files().writePlan(p.script(), p.statsScript(), new StageFiles.RanksToRun(p.stage().name(), p.plan().tasks(),
                    p.plan().localTasks(), p.plan().pendingRanks(), p.plan().blocks()));
            List<StageFiles.Submitted> jobs = new ArrayList<>();
            for (ArrayPlan.Submission s : p.plan().submissions()) {
                List<String> args = p.arguments(s);
                args.addAll(dependencyArguments(after, s.waitsFor() < 0 ? null : jobs.get(s.waitsFor()).jobId()));
                String id = slurm.submit(args, p.files().script(), List.of(Integer.toString(s.offset())));
                queued.computeIfAbsent(p.stage().name(), k -> new ArrayList<>()).add(id);
                jobs.add(new StageFiles.Submitted(id, s.offset(), s.size()));
                // record after every sbatch, so that `launcher cancel` finds a half-done submission too
                p.files().writeJobIds(jobs, null);
            }
            List<String> ids = jobs.stream().map(StageFiles.Submitted::jobId).toList();
            List<String> statsArgs = new ArrayList<>(p.statsOptions());
            statsArgs.addAll(dependencyArguments(ids, null));
            String statsId = slurm.submit(statsArgs, p.files().statsScript(), List.of());
            queued.get(p.stage().name()).add(statsId);
            p.files().writeJobIds(jobs, statsId);
            submitted.put(p.stage().name(), ids);
            out.printf("stage %s: %s -> Slurm job%s %s%s, stats merge %s%n", p.stage().name(), describe(p.plan()),
                    ids.size() == 1 ? "" : "s", String.join(", ", ids),
                    after.isEmpty() ? "" : " (after " + String.join(", ", after) + ")", statsId);
        }
    }

    /**
     * Prints what {@link #submit} would do, scripts included; touches neither Slurm nor the logging dir. {@code notes}
     * prints a stage's notes, for the stages a submit plans here (those waiting for no stage submitted with them).
     */
    public void dryRun(List<StagePlan> plans, Consumer<Job.Stage> notes) {
        Map<String, List<String>> placeholders = new HashMap<>();
        for (StagePlan p : plans) {
            if (p.plan().nothingToRun()) {
                out.printf("stage %s: %s complete, would not be submitted%n%n", p.stage().name(),
                        allRanks(p.plan().tasks()));
                continue;
            }
            List<String> after = waitFor(p, placeholders);
            if (after.isEmpty()) {
                notes.accept(p.stage());
            }
            placeholders.put(p.stage().name(), List.of("<" + p.stage().name() + ">"));
            out.printf("stage %s: %s%n", p.stage().name(), describe(p.plan()));
            out.printf("--- %s%n%s--- end of script%n", p.files().script(), p.script());
            for (ArrayPlan.Submission s : p.plan().submissions()) {
                List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
                cmd.addAll(p.arguments(s));
                cmd.addAll(dependencyArguments(after, s.waitsFor() < 0 ? null
                        : "<" + p.stage().name() + " submission " + s.waitsFor() + ">"));
                cmd.add(p.files().script().toString());
                cmd.add(Integer.toString(s.offset()));
                out.println(cmd.stream().map(ShellQuote::quote).collect(Collectors.joining(" ")));
            }
            out.printf("--- %s%n%s--- end of script%n", p.files().statsScript(), p.statsScript());
            List<String> cmd = new ArrayList<>(List.of("sbatch", "--parsable"));
            cmd.addAll(p.statsOptions());
            cmd.addAll(dependencyArguments(List.of("<" + p.stage().name() + ">"), null));
            cmd.add(p.files().statsScript().toString());
            out.println(cmd.stream().map(ShellQuote::quote).collect(Collectors.joining(" ")));
            out.println();
        }
    }

    /** The ids of the submitted stages {@code p} depends on; stages not submitted are complete already. */
    private static List<String> waitFor(StagePlan p, Map<String, List<String>> submitted) {
        List<String> ids = new ArrayList<>();
        for (String d : p.dependsOn()) {
            ids.addAll(submitted.getOrDefault(d, List.of()));
        }
        return ids;
    }

    /**
     * Waits for the jobs {@code after} to succeed and, if not null, for the job {@code afterEnd} to end (an
     * earlier submission of the same stage, which array_parallelism puts first).
     */
    private static List<String> dependencyArguments(List<String> after, String afterEnd) {
        List<String> conditions = new ArrayList<>();
        if (!after.isEmpty()) {
            conditions.add("afterok:" + String.join(":", after));
        }
        if (afterEnd != null) {
            conditions.add("afterany:" + afterEnd);
        }
        if (conditions.isEmpty()) {
            return List.of();
        }
        return List.of("--dependency=" + String.join(",", conditions), "--kill-on-invalid-dep=yes");
    }

    private static String describe(ArrayPlan plan) {
        int n = plan.pendingRanks().size();
        // the ranks to run of the largest block, not local_tasks: the stage's last block may hold fewer, and a
        // block around completed ranks runs only the others
        List<Integer> sizes = java.util.stream.IntStream.range(0, plan.blocks().size()).mapToObj(i -> plan.ranksOf(i).size()).toList();
        int perElement = sizes.stream().mapToInt(Integer::intValue).max().orElse(0);
        return String.format("%d of %d ranks to run, %d array element%s of %s%d rank%s, %d submission%s (%s)",
                n, plan.tasks(), plan.blocks().size(), plan.blocks().size() == 1 ? "" : "s",
                sizes.stream().anyMatch(k -> k != perElement) ? "up to " : "", perElement,
                perElement == 1 ? "" : "s", plan.submissions().size(),
                plan.submissions().size() == 1 ? "" : "s",
                plan.submissions().stream().map(s -> "--array=" + s.arraySpec()).collect(Collectors.joining(", ")));
    }

    /** "all 6 ranks", "its 1 rank". */
    private static String allRanks(int tasks) {
        return tasks == 1 ? "its 1 rank" : "all " + tasks + " ranks";
    }
}
