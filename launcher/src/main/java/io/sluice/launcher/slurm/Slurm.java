package io.sluice.launcher.slurm;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The Slurm commands the launcher uses; {@link SlurmCommands} runs the real ones. */
public interface Slurm {

    /** Submits {@code script} with {@code options} and script arguments {@code scriptArgs}; returns the job id. */
    String submit(List<String> options, Path script, List<String> scriptArgs);

    /**
     * Every array element of these jobs that {@code squeue} still knows, finished ones included
     * ({@code squeue -t all} keeps them for the cluster's MinJobAge). The launcher submits only
     * array jobs (a single job is an array of one), so jobs that are no array are left out.
     */
    List<ArrayTaskState> queue(Collection<String> jobIds);

    /**
     * States and reasons from accounting ({@code sacct}) of these jobs' array elements; empty when the
     * cluster keeps no accounting.
     */
    Map<ArrayTaskState.Key, ArrayTaskState> accounting(Collection<String> jobIds);

    void cancel(Collection<String> jobIds);
}
