package io.sluice.launcher;

import io.sluice.exec.StageRunner;
import io.sluice.io.ProcessLock;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.Preflight;
import io.sluice.launcher.slurm.SlurmCommands;
import io.sluice.launcher.slurm.SlurmOptions;
import io.sluice.launcher.slurm.Submitter;
import io.sluice.launcher.slurm.WorkerCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code launcher submit job.yaml}: the job's pending ranks as Slurm array jobs, one per stage, chained. */
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submit a job to Slurm: per stage one sbatch array job (split past max_array_size) for "
                + "the ranks without a completion marker, each stage after the ones it depends on (afterok).",
                "Scripts, ranks_to_run.json and job_ids.json go to <logging_dir>/<stage>/slurm/."})
final class SubmitCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "JOB", description = "job file (YAML or JSON); its slurm: block, if any, gives the resources")
    Path jobFile;

    @Option(names = "--dry-run", description = "print the scripts and sbatch commands; submit and write nothing")
    boolean dryRun;

    @Option(names = "--stage", paramLabel = "NAME", description = "submit only this stage, or the four stages of a"
            + " minhash: block by its name; the stages it depends on must be complete")
    String onlyStage;

    @Override
    public Integer call() throws Exception {
        Job job = SlurmOptions.loadJobToSubmit(jobFile);
        Path jobJson = job.loggingDir().resolve("job.json");
        // the scripts name the build in the logging dir; it is copied there once the submit is sure to go ahead
        Path builds = job.loggingDir().resolve("builds");
        WorkerCommand launcherBuild = WorkerCommand.sameAsLauncher(job, WorkerCommand.WORKER_MAIN);
        WorkerCommand worker = launcherBuild.pinnedIn(builds, false);
        List<Job.Stage> only = onlyStage == null ? job.stages() : job.stagesNamed(onlyStage);
        List<Submitter.StagePlan> plans = Submitter.only(Submitter.plan(job, worker, jobJson), only);
        Submitter submitter = new Submitter(new SlurmCommands(), System.out);
        Preflight.check(job);
        String javaHome = SlurmOptions.ofJob(job).javaHome();
        if (javaHome != null && !javaHome.isBlank() && !javaHome.equals(WorkerCommand.JAVA_ON_PATH)
                && !Files.isExecutable(Path.of(javaHome, "bin", "java"))) {
            // not an error: the compute nodes may have it where this machine does not
            System.err.printf("note: slurm.java_home %s has no bin/java on this machine; the compute nodes must have it"
                    + " (java_home: PATH runs the java that env_command puts on the PATH)%n", javaHome);
        }
        for (Job.Stage stage : job.stages()) {
            SlurmOptions slurm = SlurmOptions.of(job, stage);
            boolean threaded = stage.steps().stream().anyMatch(spec -> spec.args().containsKey("threads")); // minhash_cluster's
            if (slurm.localTasks() < slurm.cpusPerTask() && slurm.localTasks() < stage.tasks() && !threaded) {
                // a rank runs on one thread: the element's other CPUs would be allocated and idle
                System.err.printf("note: stage %s: each array element gets %d CPUs (cpus_per_task) but runs %d rank(s)"
                        + " (local_tasks), one thread each: %d CPU(s) idle; set local_tasks to %d or more%n", stage.name(),
                        slurm.cpusPerTask(), slurm.localTasks(), slurm.cpusPerTask() - slurm.localTasks(), slurm.cpusPerTask());
            }
        }
        if (job.localTasks() >= 0) {
            System.err.println("note: the top-level local_tasks and local_rank_offset choose the ranks of `launcher run`;"
                    + " submit runs every rank (slurm.local_tasks groups ranks per array element)");
        }
        boolean workersGiven = job.workers() > 0 || job.stages().stream().anyMatch(s -> s.workers() > 0);
        if (workersGiven && job.stages().stream().allMatch(s -> SlurmOptions.of(job, s).arrayParallelism() == 0)) {
            // datatrove's SlurmPipelineExecutor(workers=N) is the array's %N: a user moving it here expects a throttle
            System.err.println("note: workers is the number of ranks `launcher run` runs at once; on Slurm each array"
                    + " element runs its slurm.local_tasks ranks, and slurm.array_parallelism (datatrove's Slurm workers)"
                    + " limits how many elements run at once");
        }
        StageRunner runner = new StageRunner(job, System.out);
        if (dryRun) {
            // what submit would refuse, a dry run refuses too: changed completed stages, jobs still queued
            runner.checkCompletedStagesStillHold();
            submitter.checkNothingActive(job);
            submitter.dryRun(plans, planAndNote(new StageRunner(job, System.out).withoutSavingPlans()));
            return 0;
        }
        // Checking for active jobs and submitting are one step under a lock: two submits started together both
        // found nothing queued, both submitted, and job_ids.json kept only the last one's ids for cancel.
        Files.createDirectories(job.loggingDir());
        Path lockFile = job.loggingDir().resolve(".submit.lock");
        try (ProcessLock lock = ProcessLock.tryAcquire(lockFile)) {
            if (lock == null) {
                throw new JobException("another launcher submit of a job with logging dir " + job.loggingDir()
                        + " (" + ProcessLock.holder(lockFile) + ") is submitting right now; once it is done,"
                        + " launcher status shows its jobs");
            }
            submitter.checkNothingActive(job);
            // copied only when a stage is to run: a submit with every rank complete leaves the builds as they are
            boolean submits = plans.stream().anyMatch(p -> !p.plan().nothingToRun());
            WorkerCommand copied = submits ? launcherBuild.pinnedIn(builds, true) : worker;
            if (!copied.equals(worker)) {
                plans = Submitter.only(Submitter.plan(job, copied, jobJson), only); // the jar was rebuilt since it was named above
            }
            runner.writeJob();
            for (Submitter.StagePlan p : plans) {
                if (!p.plan().nothingToRun()) {
                    runner.prepareStage(p.stage()); // before its ranks are queued: they may start at once
                }
            }
            System.out.printf("job '%s': %d stage(s), logging dir %s%n", job.name(), job.stages().size(), job.loggingDir());
            List<String> jars = copied.classPath().stream().filter(e -> Path.of(e).startsWith(builds)).toList();
            if (submits && !jars.isEmpty()) {
                System.out.printf("worker build: %s%s%n", jars.getFirst(),
                        jars.size() == 1 ? "" : " and " + (jars.size() - 1) + " other jar(s) in " + builds);
            }
            submitter.submit(plans, planAndNote(runner));
            for (String p : WorkerCommand.removeUnusedBuilds(builds, job.loggingDir())) {
                System.err.println("warning: cannot remove the unused build " + p);
            }
        }
        System.out.printf("follow with: launcher status %s%n", jobFile);
        return 0;
    }

    /**
     * What a submit does for a stage it plans here: its shard plan, one listing of the input instead of one per
     * array element, and the notes a run prints as the stage starts.
     */
    private static java.util.function.Consumer<Job.Stage> planAndNote(StageRunner runner) {
        return stage -> {
            try {
                runner.plan(stage);
                runner.printNotes(stage);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

}
