package io.sluice.exec;

import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import java.nio.file.Path;

/**
 * The worker's entry point on a compute node: runs one block of ranks of one stage of a resolved job
 * ({@code job.json}). This is what one Slurm array task runs; it knows nothing of Slurm.
 *
 * <pre>java -cp sluice.jar io.sluice.exec.WorkerMain --job LOGDIR/job.json --stage NAME
 *      --first-rank R --ranks N [--workers W]</pre>
 *
 * Exit code 0 when every rank of the block is complete, 1 when one failed, 2 on bad arguments or when a stage the
 * stage reads has ranks not complete.
 */
public final class WorkerMain {
    /** How long, in seconds, a stage waits for the markers of the stages it reads to show before it refuses to run. */
    static final String SETTLE_PROPERTY = "sluice.worker.settle-seconds";
    private static final long SETTLE_STEP_MS = 5000;

    private WorkerMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        String jobFile = null;
        String stageName = null;
        int first = 0;
        int count = 1;
        int workers = Runtime.getRuntime().availableProcessors();
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                String v = i + 1 < args.length ? args[i + 1] : null;
                switch (a) {
                    case "--job" -> jobFile = v;
                    case "--stage" -> stageName = v;
                    case "--first-rank" -> first = Integer.parseInt(v);
                    case "--ranks" -> count = Integer.parseInt(v);
                    case "--workers" -> workers = Integer.parseInt(v);
                    default -> throw new JobException("unknown argument '" + a + "'");
                }
                i++;
            }
            if (jobFile == null || stageName == null) {
                throw new JobException("usage: WorkerMain --job JOB.json --stage NAME --first-rank R --ranks N [--workers W]");
            }
            Job job = JobFile.load(Path.of(jobFile));
            Job.Stage stage = job.stage(stageName);
            StageRunner runner = new StageRunner(job, System.out, false);
            // submit chains a stage after the whole arrays of the stages it reads (afterok); a launch script sent
            // again by hand is not, and merged a part of the stats, marked complete. Asked again for a while before
            // refusing: an NFS client may list a folder from its cache for up to a minute (acdirmax), without the
            // markers other nodes wrote just before Slurm started this element.
            String waitsFor = runner.incompleteDependency(stage, -1, 0);
            long settle = Long.getLong(SETTLE_PROPERTY, 60) * 1000;
            for (long waited = 0; waitsFor != null && waited < settle; waited += SETTLE_STEP_MS) {
                Thread.sleep(SETTLE_STEP_MS);
                waitsFor = runner.incompleteDependency(stage, -1, 0);
            }
            if (waitsFor != null) {
                throw new JobException("stage '" + stage.name() + "' depends on " + waitsFor + ", so it would read a part"
                        + " of its input; run that stage to the end first (bin/launcher submit submits the ranks not"
                        + " complete, and this stage after them)");
            }
            StageRunner.Result r = runner.runBlock(stage, first, count, workers);
            for (String f : r.failures()) {
                System.err.println("sluice worker: stage " + stage.name() + " " + f);
            }
            return r.ok() ? 0 : 1;
        } catch (JobException | NumberFormatException | NullPointerException e) {
            System.err.println("sluice worker: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("sluice worker: " + e.getMessage());
            return 1;
        }
    }
}
