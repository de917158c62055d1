package io.sluice.launcher;

import io.sluice.exec.StageRunner;
import io.sluice.job.Job;
import io.sluice.job.Preflight;
import io.sluice.launcher.slurm.SlurmOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code launcher validate job.yaml}: checks the job file and its inputs and outputs, runs nothing. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check a job file: keys, step arguments, inputs present, outputs writable, and that the stages"
                + " completed in its logging dir still hold for it. Runs nothing.")
final class ValidateCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON)")
    Path jobFile;

    @Override
    public Integer call() throws Exception {
        Job job = SlurmOptions.loadJobToSubmit(jobFile);
        Preflight.check(job);
        // what run and submit would refuse in the logging dir: a completed stage changed, or made from an earlier run
        new StageRunner(job, System.out).checkCompletedStagesStillHold();
        System.out.printf("%s: OK, job '%s', logging dir %s%n", jobFile, job.name(), job.loggingDir());
        int width = job.stages().stream().mapToInt(s -> s.name().length()).max().orElse(0);
        for (Job.Stage s : job.stages()) {
            System.out.printf("  stage %-" + width + "s %4d task(s)  steps: %s%n", s.name(), s.tasks(),
                    s.steps().stream().map(Job.StepSpec::type).toList());
        }
        return 0;
    }
}
