package io.sluice.launcher.slurm;

import io.sluice.job.Job;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Jobs for the Slurm tests, built directly as records. */
final class TestJobs {

    private TestJobs() {
    }

    static Job.SlurmOptions slurm(int localTasks, int arrayParallelism, int maxArraySize, boolean requeue,
                                  String javaHome, Map<String, String> sbatchArgs) {
        return new Job.SlurmOptions("debug", "00:10:00", 2, "1G", localTasks, arrayParallelism, maxArraySize,
                requeue, 60, null, null, null, null, null, javaHome, sbatchArgs);
    }

    static Job job(String name, Path loggingDir, Job.SlurmOptions slurm, Job.Stage... stages) {
        return new Job(name, loggingDir, stages[0].tasks(), 1, true, 0, -1, 0, List.of(stages), slurm, java.util.Map.of());
    }

    static Job.Stage stage(String name, int tasks, String... depends) {
        return new Job.Stage(name, tasks, 1, depends.length == 0 ? null : List.of(depends), List.of()); // none: after the stage before
    }
}
