package io.sluice.job;

import io.sluice.pipeline.DocumentSource;
import io.sluice.pipeline.ListedOutput;
import io.sluice.pipeline.Step;
import io.sluice.stats.MergeStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which stages of a job each stage reads from: those it names in {@code depends} (a MinHash stage reads the files of
 * the one before it), and the earlier stages writing a folder one of its steps reads (documents, stats to merge, or
 * MinHash files it lists). Not simply the stage before it: a stage reading the user's input does not read that one.
 * The relation a stage's completed ranks are held to when an upstream stage runs again (StageLineage), and the one
 * a refusal names the later stages by.
 */
public final class StageInputs {
    private final Job job;
    private final Map<String, Set<String>> inputs = new LinkedHashMap<>();
    /**
     * Per stage, those of its inputs known only as the MinHash folders it lists, which versions before 2026-11-27
     * did not record: a record without them is not held to them.
     */
    private final Map<String, Set<String>> listedOnly = new LinkedHashMap<>();

    public StageInputs(Job job) {
        this.job = job;
        // one pass: the folders written so far are those of the stages before each one
        WrittenFolders written = new WrittenFolders(job.loggingDir());
        Map<Path, String> listed = new LinkedHashMap<>(); // MinHash folders, and the stage filling each
        for (Job.Stage stage : job.stages()) {
            Set<String> in = new LinkedHashSet<>(stage.depends() == null ? List.of() : stage.depends());
            List<Step> steps = stage.steps().stream().map(StepRegistry::create).toList();
            for (Step step : steps) {
                if (step instanceof DocumentSource source) {
                    in.addAll(written.stagesWriting(source.root()));
                } else if (step instanceof MergeStats merge) {
                    in.addAll(written.stagesWriting(merge.input()));
                }
                if (step instanceof ListedOutput.Reader reader) {
                    Path folder = reader.input().toAbsolutePath().normalize();
                    listed.forEach((out, writer) -> {
                        if ((folder.startsWith(out) || out.startsWith(folder)) && in.add(writer)) {
                            listedOnly.computeIfAbsent(stage.name(), k -> new LinkedHashSet<>()).add(writer);
                        }
                    });
                }
            }
            inputs.put(stage.name(), in);
            steps.forEach(step -> written.add(stage.name(), step));
            for (Step step : steps) {
                if (step instanceof ListedOutput out) {
                    listed.put(out.listedFolder().toAbsolutePath().normalize(), stage.name());
                }
            }
        }
    }

    /** The stages {@code stage} reads from. */
    public Set<String> of(Job.Stage stage) {
        return inputs.get(stage.name());
    }

    /** Those of {@link #of} known only as MinHash folders {@code stage} lists. */
    public Set<String> listedOnly(Job.Stage stage) {
        return listedOnly.getOrDefault(stage.name(), Set.of());
    }

    /** The stage {@code name} and every stage after it that reads from it, directly or not, in the job's order. */
    public List<String> downstreamOf(String name) {
        List<String> out = new ArrayList<>(List.of(name));
        for (Job.Stage stage : job.stages()) {
            if (!out.contains(stage.name()) && of(stage).stream().anyMatch(out::contains)) {
                out.add(stage.name());
            }
        }
        return out;
    }
}
