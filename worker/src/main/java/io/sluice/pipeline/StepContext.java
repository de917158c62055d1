package io.sluice.pipeline;

import java.nio.file.Path;

/**
 * What a step knows of where it runs: its rank among {@code worldSize}, its counters, the rank's log,
 * and the stage's folder in the logging dir. Nothing here knows about Slurm.
 */
public record StepContext(int rank, int worldSize, StepStats stats, TaskLog log, Path stageDir,
                          ProgressCounter progress) {

    /** A context for running a step outside an executor (tests, tools). */
    public static StepContext standalone(String stepName, Path stageDir) {
        return new StepContext(0, 1, new StepStats(stepName), TaskLog.toStream(System.err), stageDir,
                new ProgressCounter());
    }
}
