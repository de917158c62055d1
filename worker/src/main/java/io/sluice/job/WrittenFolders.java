package io.sluice.job;

import io.sluice.pipeline.DocumentOutput;
import io.sluice.pipeline.Step;
import io.sluice.stats.StatsStep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The folders a job's steps write (documents, statistics), each with the stage that writes it, so that a
 * stage reading one of them is known to read an earlier stage's output: its input need not exist before
 * the job runs, and when that stage is complete and wrote nothing, it kept no documents.
 */
public final class WrittenFolders {
    private final Map<Path, String> stageOf = new LinkedHashMap<>();

    /** Records the folders {@code step}, a step of stage {@code stage}, writes. */
    public void add(String stage, Step step) {
        List<Path> folders = new ArrayList<>();
        if (step instanceof DocumentOutput.Writer w) {
            w.documentOutputs().forEach(o -> folders.add(o.dir()));
        }
        if (step instanceof StatsStep st) {
            folders.add(st.output());
        }
        folders.forEach(f -> stageOf.putIfAbsent(f.toAbsolutePath().normalize(), stage));
    }

    /** The folders written by the stages of {@code job} before {@code stage}. */
    public static WrittenFolders before(Job job, Job.Stage stage) {
        WrittenFolders w = new WrittenFolders();
        for (Job.Stage s : job.stages()) {
            if (s.name().equals(stage.name())) {
                break;
            }
            s.steps().forEach(spec -> w.add(s.name(), StepRegistry.create(spec)));
        }
        return w;
    }

    /** The stages, in job order, writing {@code folder}, into it or into a folder inside it; empty when none. */
    public List<String> stagesWriting(Path folder) {
        Path in = folder.toAbsolutePath().normalize();
        List<String> stages = new ArrayList<>();
        stageOf.forEach((out, stage) -> {
            if ((in.startsWith(out) || out.startsWith(in)) && !stages.contains(stage)) {
                stages.add(stage);
            }
        });
        return stages;
    }
}
