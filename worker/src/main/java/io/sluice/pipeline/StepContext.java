package io.sluice.pipeline;

import io.sluice.io.RankFiles;
import java.nio.file.Path;

/**
 * What a step knows of where it runs: its rank among {@code worldSize}, its counters, the rank's log,
 * the stage's folder in the logging dir, and the rank's journal of the files it writes (every step
 * writing output files notes each there before creating it). Nothing here knows about Slurm.
 */
public record StepContext(int rank, int worldSize, StepStats stats, TaskLog log, Path stageDir,
                          ProgressCounter progress, RankFiles files) {

    /** A context whose files are noted nowhere. */
    public StepContext(int rank, int worldSize, StepStats stats, TaskLog log, Path stageDir, ProgressCounter progress) {
        this(rank, worldSize, stats, log, stageDir, progress, RankFiles.none());
    }

    /** A context for running a step outside an executor (tests, tools). */
    public static StepContext standalone(String stepName, Path stageDir) {
        return new StepContext(0, 1, new StepStats(stepName), TaskLog.toStream(System.err), stageDir,
                new ProgressCounter());
    }
}
