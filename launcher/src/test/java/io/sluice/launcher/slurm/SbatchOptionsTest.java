package io.sluice.launcher.slurm;

import io.sluice.job.Job;
import io.sluice.job.JobException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SbatchOptionsTest {

    @Test
    void plainValuesAreDirectivesAndSbatchArgsComeLast() {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("constraint", "avx2");
        extra.put("exclusive", "");
        Job job = TestJobs.job("demo", Path.of("/data/logs"),
                TestJobs.slurm(2, 10, 1001, true, null, extra), TestJobs.stage("clean", 4));
        SbatchOptions o = SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/data/logs/clean/slurm"));
        assertEquals(List.of("#SBATCH --job-name=demo.clean", "#SBATCH --cpus-per-task=2", "#SBATCH --mem-per-cpu=1G",
                "#SBATCH --partition=debug", "#SBATCH --time=00:10:00",
                "#SBATCH --output=/data/logs/clean/slurm/slurm_logs/%A_%a.out",
                "#SBATCH --chdir=" + Path.of("").toAbsolutePath(), "#SBATCH --requeue",
                "#SBATCH --open-mode=append", "#SBATCH --signal=B:USR1@60", "#SBATCH --constraint=avx2",
                "#SBATCH --exclusive"), o.directives());
        assertTrue(o.commandLineArguments().isEmpty());
    }

    @Test
    void valuesADirectiveCannotCarryGoToTheCommandLine() {
        Path dir = Path.of("/data/my logs 100%/a\"b\nc/clean/slurm");
        Job job = TestJobs.job("my job", Path.of("/data"), TestJobs.slurm(1, 1, 1, false, null, Map.of()),
                TestJobs.stage("clean", 1));
        SbatchOptions o = SbatchOptions.forStage(job, job.stages().getFirst(), dir);
        assertTrue(o.directives().contains("#SBATCH --job-name=my_job.clean"));
        assertEquals(List.of("--output=/data/my logs 100%%/a\"b\nc/clean/slurm/slurm_logs/%A_%a.out"),
                o.commandLineArguments());
        assertTrue(o.directives().stream().noneMatch(l -> l.contains("\n") || l.contains("my logs")));

        Path spaced = Path.of("/data/my logs/clean/slurm");
        SbatchOptions q = SbatchOptions.forStage(job, job.stages().getFirst(), spaced);
        assertTrue(q.directives().contains("#SBATCH --output=\"/data/my logs/clean/slurm/slurm_logs/%A_%a.out\""));
        assertTrue(q.commandLineArguments().isEmpty());
    }

    @Test
    void aTimeLimitNoLongerThanTheRequeueGraceIsRefused() {
        assertEquals(List.of(60L, 90L, 3600L, 86400L + 7200, 86400L + 7200 + 180 + 4, -1L),
                java.util.stream.Stream.of("1", "1:30", "1:00:00", "1-2", "1-2:03:04", "UNLIMITED").map(SbatchOptions::seconds).toList());
        SlurmOptions shortTime = new SlurmOptions("debug", "00:01:00", 1, "1G", 1, 0, 1001, true, 120, null, null,
                null, null, null, null, Map.of());
        Job job = TestJobs.job("j", Path.of("/l"), shortTime, TestJobs.stage("s", 1));
        // before, each element got USR1 as it started and requeued itself, again and again
        JobException e = assertThrows(JobException.class,
                () -> SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/l/s/slurm")));
        assertEquals("slurm.requeue_grace_seconds: 120 s is not shorter than its time '00:01:00' (60 s): each element would"
                + " be told to requeue itself as soon as it starts, again and again; lower requeue_grace_seconds, or set"
                + " requeue: false", e.getMessage());
    }

    @Test
    void sbatchArgsThatTheLauncherOwnsOrThatAreNoOptionNameAreRejected() {
        // a second --cpus-per-task or --output line would win silently over the launcher's; time and partition
        // here differ from the block's (TestJobs gives 00:10:00 and debug)
        for (String key : List.of("array", "dependency", "x; rm -rf /", "cpus-per-task", "output", "job-name", "time",
                "partition")) {
            Job job = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of(key, "1")),
                    TestJobs.stage("s", 1));
            JobException e = assertThrows(JobException.class,
                    () -> SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/l/s/slurm")));
            assertTrue(e.getMessage().startsWith("slurm.sbatch_args: "), e.getMessage());
        }
        // the options requeueing rests on, unless requeue is off
        Job requeued = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, true, null, Map.of("signal", "B:USR2@30")),
                TestJobs.stage("s", 1));
        assertEquals("slurm.sbatch_args: --signal is set by `launcher submit` itself (with requeue: true; set requeue: false"
                + " to give your own)", assertThrows(JobException.class,
                () -> SbatchOptions.forStage(requeued, requeued.stages().getFirst(), Path.of("/l/s/slurm"))).getMessage());
        Job own = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of("signal", "B:USR2@30")),
                TestJobs.stage("s", 1));
        assertTrue(SbatchOptions.forStage(own, own.stages().getFirst(), Path.of("/l/s/slurm")).directives()
                .contains("#SBATCH --signal=B:USR2@30"));
    }

    /** datatrove's users give sbatch_args: {account: ...}; DESIGN.md's own example does. Before, it was refused. */
    @Test
    void aBlockKeyInSbatchArgsCountsAsTheBlocksOwn() {
        Job job = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of("account", "myproject",
                "--qos", "high")), TestJobs.stage("s", 1));
        List<String> lines = SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/l/s/slurm")).directives();
        assertTrue(lines.contains("#SBATCH --account=myproject") && lines.contains("#SBATCH --qos=high"), lines.toString());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("#SBATCH --account")).count(), lines.toString());
        // the same value twice is one line; a time given there is the one requeue_grace_seconds is checked against
        Job same = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of("time", "00:10:00")),
                TestJobs.stage("s", 1));
        assertEquals(1, SbatchOptions.forStage(same, same.stages().getFirst(), Path.of("/l/s/slurm")).directives().stream()
                .filter(l -> l.startsWith("#SBATCH --time")).count());
        SlurmOptions noTime = new SlurmOptions("debug", null, 1, "1G", 1, 0, 1001, true, 120, null, null,
                null, null, null, null, Map.of("time", "1"));
        Job requeued = TestJobs.job("j", Path.of("/l"), noTime, TestJobs.stage("s", 1));
        assertTrue(assertThrows(JobException.class, () -> SbatchOptions.forStage(requeued, requeued.stages().getFirst(),
                Path.of("/l/s/slurm"))).getMessage().startsWith("slurm.requeue_grace_seconds: 120 s is not shorter than its time '1'"));
        // sbatch takes a limit of 0 as none: no grace period is too long for it (before, refused as 0 s)
        SlurmOptions unlimited = new SlurmOptions("debug", "0", 1, "1G", 1, 0, 1001, true, 120, null, null,
                null, null, null, null, Map.of());
        Job forever = TestJobs.job("j", Path.of("/l"), unlimited, TestJobs.stage("s", 1));
        assertTrue(SbatchOptions.forStage(forever, forever.stages().getFirst(), Path.of("/l/s/slurm")).directives()
                .contains("#SBATCH --time=0"));
        Job both = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of("partition", "gpu")),
                TestJobs.stage("s", 1));
        assertEquals("slurm.sbatch_args: --partition=gpu and partition: debug are both given; keep one",
                assertThrows(JobException.class, () -> SbatchOptions.forStage(both, both.stages().getFirst(),
                        Path.of("/l/s/slurm"))).getMessage());
    }
}
