package io.sluice.launcher.slurm;

import io.sluice.job.Job;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code launcher status}: per stage, how many ranks are done (completion marker), running (started in a
 * running element), pending (queued in Slurm, or not yet started by its running element), failed (their
 * array element ended without the rank's marker), cancelled (ended before the rank started: Slurm's, because
 * a job it waited for failed, or the user's) and not submitted; for each failed rank, the Slurm state and the
 * last lines of its log and of Slurm's output file.
 *
 * <p>Slurm states come from {@code squeue -t all}, which keeps ended jobs for the cluster's
 * MinJobAge, then from accounting ({@code sacct}) when the cluster has it. An element neither knows
 * any more is reported as "ended".
 */
public final class StatusReport {

    public static final int LOG_TAIL_LINES = 10;
    /** Slurm's output file of a rank that has its own log: the worker's exit status, the OOM killer, a time limit. */
    public static final int SLURM_TAIL_LINES = 4;
    private static final String DEPENDENCY_FAILED = "DependencyNeverSatisfied";
    /** Our pending reason for a rank whose array element runs, but not this rank yet. */
    private static final String WAITS_IN_ELEMENT = "InRunningElement";
    /**
     * A Java stack trace's lines in a task log: its frames, and the exception's own line and causes
     * ("java.io.IOException: ...", "Caused by: com.fasterxml..."), which repeat the message of the log line before
     * them in Java's words; the tail a user reads keeps that message.
     */
    private static final Pattern STACK_FRAME = Pattern.compile("\\s+(at \\S.*|\\.\\.\\. \\d+ more)"
            + "|(Caused by: )?([a-z][\\w$]*\\.)+[A-Z][\\w$]*(Exception|Error|Failure)(: .*)?");

    /** A rank whose array element ended without completing it; {@code element} null for a rank of a local run. */
    public record FailedRank(int rank, ArrayTaskState.Key element, String state, Path log, List<String> logTail,
                             Path slurmLog, List<String> slurmTail) {
    }

    /**
     * @param pendingReasons   the pending ranks per squeue reason ("Dependency", "Resources", ...), most first
     * @param requeued         the stage's array elements Slurm requeued (by their USR1 near the time limit, a
     *                         node failure, preemption, scontrol requeue), with how many times, as long as
     *                         squeue knows them
     * @param statsMergeFailed the stage's stats merge job, when it ended without success (its state), else null:
     *                         then {@code <stage>/stats.json} may lack the last ranks' numbers
     * @param interrupted      ranks of a local run (counted as not run) whose last run started and neither
     *                         completed nor failed: the run was killed or stopped with Ctrl-C
     */
    public record StageStatus(String stage, int tasks, int done, int running, int pending, int cancelled,
                              int notSubmitted, List<FailedRank> failed, List<String> jobIds,
                              Map<String, Integer> pendingReasons, Map<ArrayTaskState.Key, Integer> requeued,
                              String statsMergeFailed, List<Integer> interrupted, int unknown, String slurmUnreachable) {
    }

    private StatusReport() {
    }

    public static List<StageStatus> collect(Job job, Slurm slurm) {
        Map<Job.Stage, StageFiles> files = new HashMap<>();
        List<String> allIds = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            StageFiles f = StageFiles.of(job, stage);
            files.put(stage, f);
            f.readJobIds().ifPresent(j -> allIds.addAll(j.ids()));
        }
        Map<ArrayTaskState.Key, ArrayTaskState> queue = new HashMap<>();
        String unreachable = null;
        try {
            slurm.queue(allIds).forEach(t -> queue.put(t.key(), t));
        } catch (SlurmException e) {
            // the controller down or not answering: the completion markers still say which ranks are done, and
            // they are what a user asking after a cluster outage most wants to know
            unreachable = e.getMessage();
        }
        Map<ArrayTaskState.Key, ArrayTaskState> accounting = null; // asked for only when squeue has forgotten an element
        List<StageStatus> result = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            StageFiles f = files.get(stage);
            Set<Integer> done = f.completedRanks();
            int running = 0;
            int pending = 0;
            int cancelled = 0;
            int notSubmitted = 0;
            List<FailedRank> failed = new ArrayList<>();
            List<Integer> interrupted = new ArrayList<>();
            Map<String, Integer> pendingReasons = new HashMap<>();
            Map<Integer, ArrayTaskState.Key> elementOfRank = elementsOfRanks(f);
            int unknown = 0;
            for (int rank = 0; rank < stage.tasks(); rank++) {
                if (done.contains(rank)) {
                    continue;
                }
                ArrayTaskState.Key element = elementOfRank.get(rank);
                if (element == null) {
                    Path log = f.rankLog(rank);
                    LastRun last = lastRun(log, rank);
                    if (last == LastRun.FAILED) {
                        // launcher run: no Slurm state, but the log says what went wrong
                        failed.add(new FailedRank(rank, null, "local run", log, tail(log, LOG_TAIL_LINES), null,
                                List.of()));
                        continue;
                    }
                    Path lock = io.sluice.exec.RankLock.file(job.stageDir(stage), rank);
                    if (io.sluice.io.ProcessLock.namesALiveProcessHere(lock)) {
                        running++; // launcher run, running now: its rank lock names a live process here
                    } else {
                        notSubmitted++;
                        // a rank run by another host may be running still: this host cannot tell
                        boolean elsewhere = io.sluice.io.ProcessLock.namesAnotherHost(io.sluice.io.ProcessLock.holder(lock));
                        if (last == LastRun.UNFINISHED && !elsewhere) {
                            interrupted.add(rank); // before, only "not run", as if it had never started
                        }
                    }
                    continue;
                }
                if (unreachable != null) {
                    unknown++; // neither its state nor, without it, whether its log's end is a failure
                    continue;
                }
                ArrayTaskState t = queue.get(element);
                if (t == null) {
                    if (accounting == null) {
                        accounting = slurm.accounting(allIds);
                    }
                    t = accounting.get(element);
                }
                Path log = f.rankLog(rank);
                Path slurmLog = stderrFile(job, stage, element).orElse(f.slurmLog(element));
                // the rank's log grows submission after submission: what it says of this one, if anything
                LastRun last = writtenSince(log, f.ranksToRunFile()) ? lastRun(log, rank) : LastRun.NONE;
                String state;
                if (t != null && !t.ended() && t.running() && last == LastRun.FAILED) {
                    // its element goes on with its other ranks
                    failed.add(new FailedRank(rank, element, "FAILED (its element runs on with its other ranks)", log,
                            tail(log, LOG_TAIL_LINES), slurmLog, List.of()));
                    continue;
                }
                if (t != null && !t.ended()) {
                    if (t.running() && last == LastRun.UNFINISHED) {
                        running++;
                    } else if (t.running()) {
                        // its element runs its ranks on fewer workers than it has ranks, or is still starting: this one
                        // waits its turn (before, every rank of a running element was counted running)
                        pending++;
                        pendingReasons.merge(WAITS_IN_ELEMENT, 1, Integer::sum);
                    } else {
                        pending++;
                        // a suspended, stopped or held-after-requeue element waits for that, whatever its reason
                        String why = !t.state().equals("PENDING") ? t.state() : t.hasReason() ? t.reason() : "no reason given";
                        pendingReasons.merge(why, 1, Integer::sum);
                    }
                    continue;
                } else if (neverStarted(t, last != LastRun.NONE, log, f.slurmLog(element), slurmLog)) {
                    // cancelled while it waited (a job it waited for failed, or launcher cancel / scancel of a
                    // pending element): not a failure of its own, shown once per stage rather than once per
                    // rank. One cancelled while it ran is a failed rank.
                    cancelled++;
                    continue;
                } else if (t == null) {
                    state = "ended"; // neither squeue nor accounting knows it any more
                } else if (t.state().equals("COMPLETED")) {
                    state = "COMPLETED, but the rank's completion marker is missing (removed since?)";
                } else {
                    state = t.hasReason() ? t.state() + " " + t.reason() : t.state();
                }
                boolean ownLog = Files.exists(log);
                failed.add(new FailedRank(rank, element, state, ownLog ? log : slurmLog,
                        tail(ownLog ? log : slurmLog, LOG_TAIL_LINES), slurmLog,
                        ownLog ? tail(slurmLog, SLURM_TAIL_LINES) : List.of()));
            }
            String statsMergeFailed = null;
            String statsJob = f.readJobIds().map(StageFiles.JobIds::statsJobId).orElse(null);
            if (statsJob != null && unreachable == null) {
                ArrayTaskState.Key key = new ArrayTaskState.Key(statsJob, 0);
                ArrayTaskState t = queue.get(key);
                if (t == null) {
                    if (accounting == null) {
                        accounting = slurm.accounting(allIds);
                    }
                    t = accounting.get(key);
                }
                // cancelled (by a failed array, or the user) is no failure of its own; failed, out of memory, out of time is
                if (t != null && t.ended() && !t.state().equals("COMPLETED") && !t.state().startsWith("CANCELLED")) {
                    statsMergeFailed = statsJob + " " + t.state() + (t.hasReason() ? " " + t.reason() : "");
                }
            }
            Map<ArrayTaskState.Key, Integer> requeued = new java.util.TreeMap<>(
                    java.util.Comparator.comparing(ArrayTaskState.Key::jobId).thenComparingInt(ArrayTaskState.Key::taskId));
            for (ArrayTaskState.Key element : new HashSet<>(elementOfRank.values())) {
                ArrayTaskState t = queue.get(element);
                if (t != null && t.restarts() > 0) {
                    requeued.put(element, t.restarts());
                }
            }
            result.add(new StageStatus(stage.name(), stage.tasks(), done.size(), running, pending, cancelled,
                    notSubmitted, failed, f.readJobIds().map(StageFiles.JobIds::ids).orElse(List.of()),
                    mostFirst(pendingReasons), requeued, statsMergeFailed, interrupted, unknown, unreachable));
        }
        return result;
    }

    /**
     * For a job whose logging dir is not there: a relative logging_dir (as the default, {@code out/<name>/logs})
     * is taken from the folder the command runs in, which may not be the one the job was submitted from.
     */
    public static String relativeHint(Job job) {
        return " If the job file's logging_dir is relative (the default, out/" + job.name() + "/logs, is), it is taken"
                + " from the folder the command runs in, here " + Path.of("").toAbsolutePath() + ": run the command from the"
                + " folder the job was run or submitted from.";
    }

    private static Map<String, Integer> mostFirst(Map<String, Integer> counts) {
        Map<String, Integer> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * What Slurm's most common reasons for a pending element mean for a job of ours: the reasons a user asks
     * about, and those that mean the element will never start as submitted.
     */
    private static final Map<String, String> PENDING_HINTS = Map.ofEntries(
            Map.entry(WAITS_IN_ELEMENT, "its array element runs, and it waits for one of the element's workers"),
            Map.entry("Dependency", "waits for the jobs it depends on: earlier stages, or an earlier part of its array"),
            Map.entry("Resources", "waits for free nodes or CPUs"),
            Map.entry("Priority", "queued behind jobs of higher priority"),
            Map.entry("JobArrayTaskLimit", "held back by array_parallelism, the array's limit on elements at once"),
            Map.entry("BeginTime", "waits for its begin time; a requeued element waits a while before it runs again"),
            Map.entry("SUSPENDED", "suspended by an administrator or a preempting job"),
            Map.entry("STOPPED", "stopped (scontrol suspend or a SIGSTOP); scontrol resume lets it go on"),
            Map.entry("REQUEUE_HOLD", "requeued and held: scontrol release lets it run"),
            Map.entry("job requeued in held state", "scontrol release lets it run"),
            Map.entry("JobHeldUser", "held: scontrol release lets it run"),
            Map.entry("JobHeldAdmin", "held by an administrator"),
            Map.entry("PartitionDown", "its partition is down"),
            Map.entry("PartitionInactive", "its partition is inactive"),
            Map.entry("PartitionTimeLimit", "will not start: its time exceeds the partition's limit; lower slurm.time"),
            Map.entry("PartitionNodeLimit", "will not start: it asks for more nodes than the partition allows"),
            Map.entry("PartitionConfig", "will not start: it asks for more than the partition's nodes have (CPUs, memory,"
                    + " features); lower cpus_per_task or mem, or choose another partition"),
            Map.entry("QOSMaxWallDurationPerJobLimit", "will not start: its time exceeds its QOS's limit; lower slurm.time"));

    /** A pending reason with what it means, when {@link #PENDING_HINTS} knows it ("ReqNodeNotAvail, ..." included). */
    static String explainPending(String reason) {
        if (reason.startsWith("ReqNodeNotAvail")) {
            return reason + " (a node it needs is down, drained or reserved)";
        }
        String hint = PENDING_HINTS.get(reason);
        return hint == null ? reason : reason + " (" + hint + ")";
    }

    /**
     * Whether an ended element never ran the rank: Slurm cancelled it for a failed dependency, or it was
     * cancelled while it waited (its reason is then why it waited) or before the rank started, or it left
     * neither Slurm's output file, which Slurm creates as an element starts, nor the rank's log. The files settle
     * it once squeue has forgotten the element on a cluster without accounting, and for elements accounting lists
     * only as a range.
     */
    private static boolean neverStarted(ArrayTaskState t, boolean startedThisSubmission, Path rankLog, Path slurmOut,
                                        Path slurmErr) {
        if (t != null && (t.reason().equals(DEPENDENCY_FAILED)
                || (t.state().startsWith("CANCELLED") && (t.hasReason() || !startedThisSubmission)))) {
            return true; // the last: its element ran other ranks, and was cancelled before it came to this one
        }
        return !Files.exists(rankLog) && !Files.exists(slurmOut) && !Files.exists(slurmErr);
    }

    /**
     * Where Slurm put the element's stderr when sbatch_args redirect it ({@code error: /logs/%A_%a.err}): the
     * worker's failure and exit status go there, not to the output file. Empty when not redirected, or when
     * the pattern uses more than the job id, array index and {@code %%}.
     */
    static Optional<Path> stderrFile(Job job, Job.Stage stage, ArrayTaskState.Key element) {
        SlurmOptions s = SlurmOptions.of(job, stage);
        String pattern = s.sbatchArgs().get("error");
        if (pattern == null || pattern.isBlank()) {
            return Optional.empty();
        }
        String name = pattern.replace("%%", "\0").replace("%A", element.jobId())
                .replace("%a", Integer.toString(element.taskId()));
        return name.contains("%") ? Optional.empty() : Optional.of(Path.of(name.replace("\0", "%")));
    }

    /**
     * Whether {@code log} was written after {@code submitted} (the submission's ranks_to_run.json, written before
     * its sbatch): a log untouched since is an earlier submission's, of a run this one has not come to yet.
     */
    private static boolean writtenSince(Path log, Path submitted) {
        try {
            return !Files.exists(submitted) || Files.getLastModifiedTime(log).compareTo(Files.getLastModifiedTime(submitted)) >= 0;
        } catch (IOException e) {
            return false; // no log
        }
    }

    /** How a rank's last run ended, as its task log (which grows run after run) tells it. */
    private enum LastRun { NONE, FAILED, COMPLETED, UNFINISHED }

    private static LastRun lastRun(Path log, int rank) {
        if (!Files.exists(log)) {
            return LastRun.NONE;
        }
        try (java.util.stream.Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.UTF_8)) {
            String started = "starting stage ";
            String failed = "rank " + rank + " failed: ";
            String completed = "rank " + rank + " completed";
            LastRun last = LastRun.NONE;
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.contains(started)) {
                    last = LastRun.UNFINISHED;
                } else if (line.contains(failed)) {
                    last = LastRun.FAILED;
                } else if (line.contains(completed)) {
                    last = LastRun.COMPLETED;
                }
            }
            return last;
        } catch (IOException | java.io.UncheckedIOException e) {
            return LastRun.NONE;
        }
    }

    /** Which array element of the last submission runs each rank. */
    private static Map<Integer, ArrayTaskState.Key> elementsOfRanks(StageFiles f) {
        Map<Integer, ArrayTaskState.Key> map = new HashMap<>();
        Optional<StageFiles.RanksToRun> ranks = f.readRanksToRun();
        Optional<StageFiles.JobIds> jobs = f.readJobIds();
        if (ranks.isEmpty() || jobs.isEmpty()) {
            return map;
        }
        Set<Integer> pending = Set.copyOf(ranks.get().ranks());
        for (StageFiles.Submitted s : jobs.get().submissions()) {
            for (int i = 0; i < s.arraySize(); i++) {
                ArrayPlan.Block b = ranks.get().blocks().get(s.blockOffset() + i);
                for (int r = b.firstRank(); r < b.firstRank() + b.ranks(); r++) {
                    if (pending.contains(r)) {
                        map.put(r, new ArrayTaskState.Key(s.jobId(), i));
                    }
                }
            }
        }
        return map;
    }

    /**
     * The last {@code lines} lines of a log, without Java stack frames ({@code at ...},
     * {@code ... 11 more}): a failed rank's log ends in a stack trace, and the lines that say what
     * went wrong (the error, its exception and causes) are the ones before and between the frames.
     */
    static List<String> tail(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> !STACK_FRAME.matcher(l).matches()).toList();
            return all.subList(Math.max(0, all.size() - lines), all.size());
        } catch (IOException e) {
            return List.of("(cannot read " + file + ": " + e.getMessage() + ")");
        }
    }

    public static void print(Job job, List<StageStatus> stages, PrintStream out) {
        out.printf("job %s, logging dir %s%n", job.name(), job.loggingDir());
        if (!Files.isDirectory(job.loggingDir())) {
            out.println("(no such folder: nothing has run or been submitted with this logging dir." + relativeHint(job) + ")");
        }
        if (stages.stream().allMatch(s -> s.jobIds().isEmpty())) {
            // never submitted: a job run here, where a rank not done has not run, or was stopped as it ran
            out.printf("%-20s %11s %8s %7s %8s%n", "stage", "done", "running", "failed", "not run");
            for (StageStatus s : stages) {
                out.printf("%-20s %11s %8d %7d %8d%n", s.stage(), s.done() + "/" + s.tasks(), s.running(), s.failed().size(),
                        s.notSubmitted());
            }
        } else {
            String unreachable = stages.stream().map(StageStatus::slurmUnreachable).filter(java.util.Objects::nonNull)
                    .findFirst().orElse(null);
            // without Slurm's answer, the ranks it would place are 'unknown': what the files say, and no guess
            String unknownHead = unreachable == null ? "" : String.format(" %8s", "unknown");
            out.printf("%-20s %11s %8s %8s %7s %10s %14s%s  %s%n", "stage", "done", "running", "pending", "failed",
                    "cancelled", "not submitted", unknownHead, "slurm jobs");
            for (StageStatus s : stages) {
                String unknown = unreachable == null ? "" : String.format(" %8d", s.unknown());
                out.printf("%-20s %11s %8d %8d %7d %10d %14d%s  %s%n", s.stage(), s.done() + "/" + s.tasks(), s.running(),
                        s.pending(), s.failed().size(), s.cancelled(), s.notSubmitted(), unknown, String.join(",", s.jobIds()));
            }
            if (unreachable != null) {
                out.printf("Slurm's state of the jobs could not be read (%s): 'done' is read from the ranks' completion"
                        + " markers; whether the 'unknown' ranks run, wait or failed is not known until squeue answers%n",
                        unreachable);
            }
        }
        for (StageStatus s : stages) {
            if (s.pending() > 0) {
                List<String> reasons = new ArrayList<>();
                // with one reason the count is the stage's: "2 ranks pending: Dependency (...)", not "2 ranks pending: 2 Dependency"
                boolean one = s.pendingReasons().size() == 1;
                s.pendingReasons().forEach((reason, ranks) -> reasons.add((one ? "" : ranks + " ") + explainPending(reason)));
                out.printf("stage %s: %d rank%s pending: %s%n", s.stage(), s.pending(), s.pending() == 1 ? "" : "s",
                        String.join("; ", reasons));
            }
        }
        for (StageStatus s : stages) {
            if (!s.requeued().isEmpty()) {
                int times = s.requeued().values().stream().mapToInt(Integer::intValue).sum();
                List<String> shown = new ArrayList<>();
                s.requeued().entrySet().stream().limit(5).forEach(e -> shown.add(e.getKey() + (e.getValue() > 1 ? " x" + e.getValue() : "")));
                out.printf("stage %s: Slurm requeued %d array element%s, %d time%s in all (%s%s): by their own USR1"
                        + " handler near the time limit (requeue: true), after a node failure or preemption, or by scontrol requeue%n", s.stage(), s.requeued().size(), s.requeued().size() == 1 ? "" : "s", times,
                        times == 1 ? "" : "s", String.join(", ", shown), s.requeued().size() > 5 ? ", ..." : "");
            }
        }
        Set<ArrayTaskState.Key> slurmTailShown = new HashSet<>(); // the ranks of one element share its output file
        Set<Path> logShown = new HashSet<>();
        for (StageStatus s : stages) {
            for (FailedRank f : s.failed()) {
                String failed = String.format("stage %s rank %d failed%s", s.stage(), f.rank(),
                        f.element() == null ? " in a local run" : ": Slurm job " + f.element() + " " + f.state());
                if (!f.logTail().isEmpty() && !logShown.add(f.log())) {
                    // ranks without a log of their own, of one element: its output once (64 copies with local_tasks: 64)
                    out.printf("%s; the last lines of %s are above%n", failed, f.log());
                    continue;
                }
                out.printf("%n%s; %s%n", failed, f.logTail().isEmpty() ? "no log at " + f.log() : "last lines of " + f.log() + ":");
                for (String line : f.logTail()) {
                    out.println("  | " + line);
                }
                if (!f.slurmTail().isEmpty() && slurmTailShown.add(f.element())) {
                    out.printf("  and of Slurm's %s:%n", f.slurmLog());
                    for (String line : f.slurmTail()) {
                        out.println("  | " + line);
                    }
                }
            }
        }
        for (StageStatus s : stages) {
            if (!s.interrupted().isEmpty()) {
                List<String> ranks = s.interrupted().stream().limit(10).map(String::valueOf).toList();
                out.printf("%nstage %s: rank%s %s%s started in a local run that ended before %s did (killed, or Ctrl-C);"
                        + " `launcher run` again starts %s over%n", s.stage(), ranks.size() == 1 ? "" : "s",
                        String.join(", ", ranks), s.interrupted().size() > 10 ? ", ..." : "",
                        s.interrupted().size() == 1 ? "it" : "they", s.interrupted().size() == 1 ? "it" : "them");
            }
        }
        for (StageStatus s : stages) {
            if (s.statsMergeFailed() != null) {
                out.printf("%nstage %s: its stats merge, Slurm job %s, did not complete: %s may lack the last ranks'"
                        + " numbers; see %s, and `launcher run --stage %s` on a machine with the job's files merges them%n",
                        s.stage(), s.statsMergeFailed(), job.stageDir(job.stage(s.stage())).resolve("stats.json"),
                        StageFiles.of(job, job.stage(s.stage())).slurmDir().resolve("slurm_logs"), s.stage());
            }
        }
        for (StageStatus s : stages) {
            if (s.cancelled() > 0) {
                boolean one = s.cancelled() == 1;
                out.printf("%nstage %s: %d rank%s ended before %s started: cancelled, by launcher cancel or scancel, or"
                        + " by Slurm when a job %s waited for failed (%s); submit again to run %s%n", s.stage(),
                        s.cancelled(), one ? "" : "s", one ? "it" : "they", one ? "it" : "they", DEPENDENCY_FAILED,
                        one ? "it" : "them");
            }
        }
    }
}
