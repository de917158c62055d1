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
                + "For a job run here (launcher run): the ranks done, running, failed (with their log) and not run. "
                + "Then, per stage whose ranks are summed in its stats.json, the input lines its reader skipped.",
                "Exit code 0 when every rank of every stage is done, 1 otherwise."})
final class StatusCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON)")
    Path jobFile;

    @Override
    public Integer call() throws java.io.IOException {
        Job job = SlurmOptions.loadJob(jobFile);
        var stages = StatusReport.collect(job, new SlurmCommands());
        StatusReport.print(job, stages, System.out);
        for (Job.Stage stage : job.stages()) {
            // what run says as a stage ends (documents without a URL, a filter that dropped all, what the readers
            // skipped), from the stage's stats.json: on Slurm no console says it
            java.nio.file.Path stats = job.stageDir(stage).resolve("stats.json");
            if (java.nio.file.Files.exists(stats)) {
                try {
                    for (String note : io.sluice.exec.PipelineStats.read(stats).notes()) {
                        System.out.printf("stage %s: %s%n", stage.name(), note);
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // a stats file being written or damaged: the table above stands without the note
                }
            }
        }
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
