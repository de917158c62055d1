package io.sluice.launcher;

import io.sluice.job.Job;
import io.sluice.launcher.slurm.SlurmCommands;
import io.sluice.launcher.slurm.SlurmOptions;
import io.sluice.launcher.slurm.StatusReport;
import io.sluice.launcher.slurm.Submitter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code launcher cancel job.yaml}: scancel the Slurm jobs of the job's last submission. */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancel the job's Slurm jobs that are still queued or running (ids from "
                + "<logging_dir>/<stage>/slurm/job_ids.json). Completed ranks stay complete.")
final class CancelCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON)")
    Path jobFile;

    @Override
    public Integer call() {
        Job job = SlurmOptions.loadJob(jobFile);
        if (!Files.isDirectory(job.loggingDir())) {
            // The job ids are kept there: without it nothing is known to cancel, and "no Slurm jobs queued or
            // running", exit 0, left a job submitted from another folder (a relative logging_dir) running.
            System.err.println("error: job '" + job.name() + "' has no logging dir " + job.loggingDir().toAbsolutePath()
                    + ", where submit keeps its Slurm job ids: it was not submitted with that logging dir."
                    + StatusReport.relativeHint(job));
            return 1;
        }
        List<String> cancelled = new Submitter(new SlurmCommands(), System.out).cancel(job);
        System.out.println(cancelled.isEmpty() ? "job '" + job.name() + "' has no Slurm jobs queued or running"
                : "cancelled Slurm job(s) " + String.join(", ", cancelled));
        return 0;
    }
}
