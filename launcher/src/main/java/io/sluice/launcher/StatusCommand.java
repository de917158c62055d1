package io.sluice.launcher;

import io.sluice.exec.StageRunner;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.launcher.slurm.SlurmCommands;
import io.sluice.launcher.slurm.SlurmOptions;
import io.sluice.launcher.slurm.StatusReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code launcher status job.yaml}: ranks done, running, pending and failed per stage of a submitted job. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show a submitted job's progress: per stage the ranks done, running, pending, failed, "
                + "cancelled and not submitted, then each failed rank's Slurm state and the last lines of its log. "
                + "For a job run here (launcher run): the ranks done, failed (with their log) and not run.",
                "Exit code 0 when every rank of every stage is done, 1 otherwise."})
final class StatusCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON)")
    Path jobFile;

    @Override
    public Integer call() throws java.io.IOException {
        Job job = SlurmOptions.loadJob(jobFile);
        var stages = StatusReport.collect(job, new SlurmCommands());
        StatusReport.print(job, stages, System.out);
        try {
            new StageRunner(job, System.out).checkCompletedStagesStillHold();
        } catch (JobException e) {
            // ranks counted done above that run and submit will not take as done (the job or its input changed)
            System.out.printf("%nnote: %s%n", e.getMessage());
            return 1;
        }
        return stages.stream().allMatch(s -> s.done() == s.tasks()) ? 0 : 1;
    }
}
