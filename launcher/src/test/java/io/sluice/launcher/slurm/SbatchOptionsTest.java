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
        extra.put("account", "proj1");
        extra.put("exclusive", "");
        Job job = TestJobs.job("demo", Path.of("/data/logs"),
                TestJobs.slurm(2, 10, 1001, true, null, extra), TestJobs.stage("clean", 4));
        SbatchOptions o = SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/data/logs/clean/slurm"));
        assertEquals(List.of("#SBATCH --job-name=demo.clean", "#SBATCH --cpus-per-task=2", "#SBATCH --mem-per-cpu=1G",
                "#SBATCH --partition=debug", "#SBATCH --time=00:10:00",
                "#SBATCH --output=/data/logs/clean/slurm/slurm_logs/%A_%a.out", "#SBATCH --requeue",
                "#SBATCH --open-mode=append", "#SBATCH --signal=B:USR1@60", "#SBATCH --account=proj1",
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
    void sbatchArgsThatTheLauncherOwnsOrThatAreNoOptionNameAreRejected() {
        for (String key : List.of("array", "dependency", "x; rm -rf /")) {
            Job job = TestJobs.job("j", Path.of("/l"), TestJobs.slurm(1, 1, 1, false, null, Map.of(key, "1")),
                    TestJobs.stage("s", 1));
            JobException e = assertThrows(JobException.class,
                    () -> SbatchOptions.forStage(job, job.stages().getFirst(), Path.of("/l/s/slurm")));
            assertTrue(e.getMessage().startsWith("slurm.sbatch_args: "), e.getMessage());
        }
    }
}
