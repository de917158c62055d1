package io.sluice.job;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A resolved job: what {@code job.yaml} says, with defaults filled in and every key checked but the
 * {@code slurm:} blocks' (see below).
 * Written to {@code <logging_dir>/job.json} as run; the worker on a compute node reads that file.
 * {@code localTasks}/{@code localRankOffset} (datatrove's names) restrict a local run to a block of
 * ranks; {@code localTasks == -1} means all of them. {@code slurm} is the job's {@code slurm:} block and
 * {@code stageSlurm} each stage's own, as written (empty when absent): the launcher reads and checks them, the worker never.
 * {@code loggingDirPlace} names the key in the job file for messages ("job.yaml:3: logging_dir").
 */
public record Job(String name, Path loggingDir, int tasks, int workers, boolean skipCompleted,
                  double randomizeStartDuration, int localTasks, int localRankOffset, List<Stage> stages,
                  Map<String, Object> slurm, Map<String, Map<String, Object>> stageSlurm, String loggingDirPlace) {

    /** One stage: its ranks all run the same steps over their share of the input. */
    public record Stage(String name, int tasks, int workers, List<String> depends, List<StepSpec> steps) {
    }

    /** A step as the job file names it; {@code where} locates it in the file for messages. */
    public record StepSpec(String type, Map<String, Object> args, String where) {
    }

    public Stage stage(String stageName) {
        for (Stage s : stages) {
            if (s.name().equals(stageName)) {
                return s;
            }
        }
        throw new JobException("job '" + name + "' has no stage '" + stageName + "'; its stages: "
                + String.join(", ", stages.stream().map(Stage::name).toList()));
    }

    /** The stages {@code run --stage} names: one stage, or the four stages of a {@code minhash:} block by its name. */
    public List<Stage> stagesNamed(String stageOrBlock) {
        List<Stage> block = new java.util.ArrayList<>();
        for (Stage s : stages) {
            if (s.name().equals(stageOrBlock)) {
                return List.of(s);
            }
            if (StageExpander.MINHASH_STAGES.stream().anyMatch(suffix -> s.name().equals(stageOrBlock + suffix))) {
                block.add(s);
            }
        }
        if (block.size() == StageExpander.MINHASH_STAGES.size()) {
            return block;
        }
        return List.of(stage(stageOrBlock)); // an error naming the stages
    }

    /**
     * The stages a stage waits for and reads from: those it names in {@code depends}, else the stage
     * before it (the first stage has none).
     */
    public List<String> upstreamOf(Stage stage) {
        if (stage.depends() != null) {
            return stage.depends(); // depends: [] is a stage that waits for none, as a datatrove executor without depends
        }
        int index = stages.indexOf(stage);
        return index <= 0 ? List.of() : List.of(stages.get(index - 1).name());
    }

    public Path stageDir(Stage s) {
        return loggingDir.resolve(s.name());
    }
}
