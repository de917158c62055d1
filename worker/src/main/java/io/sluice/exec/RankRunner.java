package io.sluice.exec;

import io.sluice.io.Completions;
import io.sluice.io.InputPiece;
import io.sluice.io.RankFiles;
import io.sluice.job.Job;
import io.sluice.job.StepRegistry;
import io.sluice.pipeline.DocumentSource;
import io.sluice.pipeline.Pipeline;
import io.sluice.pipeline.ProgressCounter;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import io.sluice.pipeline.StepStats;
import io.sluice.pipeline.TaskLog;
import io.sluice.stats.MergeStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Runs one rank of one stage: builds its steps, runs the pipeline over its pieces, writes its stats,
 * and only then its completion marker. Any failure leaves no marker, so a re-run does the rank again.
 */
public final class RankRunner {
    private RankRunner() {
    }

    /** A rank that failed, with the one-line reason a user sees. */
    static final class RankFailure extends Exception {
        final int rank;

        RankFailure(int rank, String message, Throwable cause) {
            super(message, cause);
            this.rank = rank;
        }
    }

    /**
     * Runs the rank under its {@link RankLock}; null when, once locked, the rank turns out complete and
     * {@code skipCompleted}: another run of the job finished it in the meantime. A rank another run on this
     * host is running is waited for (before, both runs of a job started twice failed, each on the other's
     * ranks), and {@code waiting} told who holds it; one held by a process on another host fails the rank, as
     * that lock may outlive a crashed node.
     */
    static PipelineStats run(Job.Stage stage, Path stageDir, int rank, List<InputPiece> pieces, ProgressCounter progress,
                             boolean skipCompleted, java.util.function.Consumer<String> waiting) throws RankFailure {
        io.sluice.io.ProcessLock lock;
        try {
            lock = RankLock.acquireUnlessHeldElsewhere(stageDir, rank, waiting);
        } catch (IOException e) {
            throw new RankFailure(rank, "cannot create the rank's lock file in " + stageDir + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            throw new RankFailure(rank, "is being run by " + RankLock.holder(stageDir, rank) + ": another run of this job"
                    + " on the same logging dir (a second submit, or run beside a Slurm array); left to it (if that"
                    + " process is gone, as after a node crash on NFS, SLUICE_NO_RANK_LOCK=1 runs without the lock)", null);
        }
        try (lock) {
            if (skipCompleted && Completions.isComplete(stageDir, rank)) {
                return null;
            }
            return runLocked(stage, stageDir, rank, pieces, progress);
        } catch (IOException e) {
            throw new RankFailure(rank, "cannot release the rank's lock: " + e.getMessage(), e);
        }
    }

    /** The task log of a rank, {@code <stage dir>/logs/task_NNNNN.log} (datatrove's name). */
    public static Path logFile(Path stageDir, int rank) {
        return stageDir.resolve("logs").resolve(String.format("task_%05d.log", rank));
    }

    private static PipelineStats runLocked(Job.Stage stage, Path stageDir, int rank, List<InputPiece> pieces,
                                           ProgressCounter progress) throws RankFailure {
        Path logFile = logFile(stageDir, rank);
        try (TaskLog log = TaskLog.toFile(logFile, rank)) {
            try {
                log.info("starting stage '" + stage.name() + "' rank " + rank + "/" + stage.tasks()
                        + " with " + pieces.size() + " input piece(s); kernels: " + io.sluice.simd.Kernels.describe());
                List<Step> steps = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (Job.StepSpec spec : stage.steps()) {
                    steps.add(StepRegistry.create(spec));
                    names.add(spec.type());
                }
                // with skip_completed: false a completed rank runs again: were it killed after the removal below,
                // its marker would still say its (removed) outputs are there
                Completions.unmark(stageDir, rank);
                int removed = RankFiles.removeEarlierRun(stageDir, rank, readBy(steps));
                if (removed > 0) {
                    log.info("removed " + removed + " file(s) an earlier run of this rank wrote");
                }
                RankFiles files = RankFiles.of(stageDir, rank);
                Pipeline pipeline = new Pipeline(steps, names);
                List<StepStats> stats = pipeline.stats();
                pipeline.run(pieces, i -> new StepContext(rank, stage.tasks(), stats.get(i), log, stageDir, progress, files));
                PipelineStats ps = new PipelineStats(stats);
                ps.write(stageDir.resolve("stats").resolve(String.format("%05d.json", rank)), false);
                Completions.markComplete(stageDir, rank);
                log.info("rank " + rank + " completed: " + summary(ps));
                return ps;
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                // Errors too: before, a step's stack overflow reached the console as a bare class name, and the
                // task log, which launcher status shows on Slurm, said nothing
                io.sluice.pipeline.HeapReserve.releaseFor(e);
                String msg = e instanceof OutOfMemoryError ? "a step failed: " + Pipeline.StepFailure.reason(e)
                        : e instanceof Error ? "a step failed: " + e : io.sluice.io.FileErrors.describe(e);
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                log.error("rank " + rank + " failed: " + msg + "\n" + trace);
                throw new RankFailure(rank, msg, e);
            }
        } catch (IOException e) {
            throw new RankFailure(rank, "cannot write the log " + logFile + ": " + e.getMessage(), e);
        }
    }

    /** Whether a file is input of {@code steps}: listed by their reader, or in the folder merge_stats merges. */
    static Predicate<Path> readBy(List<Step> steps) {
        return f -> steps.stream().anyMatch(s -> s instanceof DocumentSource source && source.lists(f)
                || s instanceof MergeStats merge && f.startsWith(merge.input().toAbsolutePath().normalize()));
    }

    static String summary(PipelineStats ps) {
        StringBuilder sb = new StringBuilder();
        for (StepStats s : ps.steps()) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(s.name()).append(' ').append(s.counters()).append(String.format(" %.2fs", s.nanos() / 1e9));
        }
        return sb.toString();
    }
}
