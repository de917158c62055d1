package io.sluice.launcher.slurm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.io.Completions;
import io.sluice.io.AtomicFile;
import io.sluice.job.Job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code launcher submit} keeps in {@code <logging_dir>/<stage>/slurm/}: the launch script,
 * {@code ranks_to_run.json} (the ranks and blocks of the last submission) and {@code job_ids.json}
 * (its Slurm jobs), which {@code launcher status} and {@code launcher cancel} read back.
 */
public record StageFiles(Path stageDir) {

    /** The ranks and blocks of the last submission: array element i of a job runs block offset + i. */
    public record RanksToRun(String stage, int tasks, int localTasks, List<Integer> ranks,
                             List<ArrayPlan.Block> blocks) {
    }

    /** One sbatch of the stage: its array elements run blocks {@code blockOffset ..}. */
    public record Submitted(String jobId, int blockOffset, int arraySize) {
    }

    /** The Slurm jobs of the last submission of the stage: its array jobs, then its stats merge job. */
    public record JobIds(List<Submitted> submissions, String statsJobId) {
        public List<String> ids() {
            List<String> ids = new ArrayList<>(submissions.stream().map(Submitted::jobId).toList());
            if (statsJobId != null) {
                ids.add(statsJobId);
            }
            return ids;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    public static StageFiles of(Job job, Job.Stage stage) {
        return new StageFiles(job.stageDir(stage));
    }

    public Path slurmDir() {
        return stageDir.resolve("slurm");
    }

    public Path script() {
        return slurmDir().resolve("launch_script.slurm");
    }

    public Path statsScript() {
        return slurmDir().resolve("stats_merge.slurm");
    }

    public Path ranksToRunFile() {
        return slurmDir().resolve("ranks_to_run.json");
    }

    public Path jobIdsFile() {
        return slurmDir().resolve("job_ids.json");
    }

    /** Slurm's own output of an array element (the {@code --output} pattern, expanded). */
    public Path slurmLog(ArrayTaskState.Key element) {
        return slurmDir().resolve("slurm_logs").resolve(element.jobId() + "_" + element.taskId() + ".out");
    }

    /** The worker's log of one rank. */
    public Path rankLog(int rank) {
        return io.sluice.exec.RankRunner.logFile(stageDir, rank);
    }

    /** Ranks with a completion marker ({@code completions/NNNNN}). */
    public Set<Integer> completedRanks() {
        try {
            return Completions.completedRanks(stageDir).stream().boxed().collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the completions of " + stageDir, e);
        }
    }

    public Optional<RanksToRun> readRanksToRun() {
        return read(ranksToRunFile(), RanksToRun.class);
    }

    public Optional<JobIds> readJobIds() {
        return read(jobIdsFile(), JobIds.class);
    }

    /** Writes the scripts and {@code ranks_to_run.json}, and removes the previous submission's job ids. */
    public void writePlan(String script, String statsScript, RanksToRun ranks) {
        try {
            Files.createDirectories(slurmDir().resolve("slurm_logs"));
            write(script(), script);
            write(statsScript(), statsScript);
            write(ranksToRunFile(), JSON.writeValueAsString(ranks));
            Files.deleteIfExists(jobIdsFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + slurmDir(), e);
        }
    }

    public void writeJobIds(List<Submitted> submissions, String statsJobId) {
        try {
            write(jobIdsFile(), JSON.writeValueAsString(new JobIds(new ArrayList<>(submissions), statsJobId)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jobIdsFile(), e);
        }
    }

    static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) throws IOException {
        AtomicFile.write(file, (text.endsWith("\n") ? text : text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static <T> Optional<T> read(Path file, Class<T> type) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
