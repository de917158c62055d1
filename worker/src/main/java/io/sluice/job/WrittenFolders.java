package io.sluice.job;

import io.sluice.pipeline.DocumentOutput;
import io.sluice.pipeline.Step;
import io.sluice.stats.StatsStep;
import java.io.IOException;
import java.nio.file.Files;
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
    /** Per folder, the document outputs writing it (a statistics folder has none). */
    private final Map<Path, List<DocumentOutput>> documentOutputs = new LinkedHashMap<>();

    /** Records the folders {@code step}, a step of stage {@code stage}, writes. */
    public void add(String stage, Step step) {
        if (step instanceof DocumentOutput.Writer w) {
            for (DocumentOutput o : w.documentOutputs()) {
                Path f = normal(o.dir());
                stageOf.putIfAbsent(f, stage);
                documentOutputs.computeIfAbsent(f, k -> new ArrayList<>()).add(o);
            }
        }
        if (step instanceof StatsStep st) {
            stageOf.putIfAbsent(normal(st.output()), stage);
        }
    }

    private static Path normal(Path folder) {
        return folder.toAbsolutePath().normalize();
    }

    /**
     * Whether what the recorded steps wrote into {@code folder} (or into folders inside it) is no document:
     * each of those folders exists, as a writer leaves it, and holds none of its writer's files; and only
     * document outputs write there. False when one is missing (not written yet, or deleted since) or holds
     * a file: then a reader finding nothing to read has a real problem, such as a glob that misses the files.
     */
    public boolean holdsNoDocuments(Path folder) throws IOException {
        Path in = normal(folder);
        for (Map.Entry<Path, String> e : stageOf.entrySet()) {
            Path out = e.getKey();
            if (!(in.startsWith(out) || out.startsWith(in))) {
                continue;
            }
            List<DocumentOutput> outputs = documentOutputs.get(out);
            if (outputs == null || !Files.isDirectory(out)) {
                return false;
            }
            for (DocumentOutput o : outputs) {
                if (!o.ownFiles().isEmpty()) {
                    return false;
                }
            }
        }
        return true;
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
        Path in = normal(folder);
        List<String> stages = new ArrayList<>();
        stageOf.forEach((out, stage) -> {
            if ((in.startsWith(out) || out.startsWith(in)) && !stages.contains(stage)) {
                stages.add(stage);
            }
        });
        return stages;
    }
}
