package io.sluice.launcher;

import io.sluice.exec.LocalExecutor;
import io.sluice.job.Job;
import io.sluice.launcher.slurm.SlurmOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code launcher run job.yaml}: the whole job on this machine with the local executor. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a job on this machine: every stage, ranks as threads; completed ranks are skipped.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every rank done", "1:a rank failed (its file and line are printed; logs in the stage folder)",
            "2:the job file is wrong, or --stage names no stage of it"})
final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON)")
    Path jobFile;

    @Option(names = "--stage", paramLabel = "NAME", description = "run only this stage, or the four stages of a minhash: block by its name")
    String stage;

    @Override
    public Integer call() throws Exception {
        Job job = SlurmOptions.loadJob(jobFile);
        System.out.printf("job '%s': %d stage(s), logging dir %s%n", job.name(), job.stages().size(), job.loggingDir());
        boolean ok = new LocalExecutor(job, System.out).run(stage);
        return ok ? 0 : 1;
    }
}
