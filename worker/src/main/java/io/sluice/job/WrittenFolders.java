package io.sluice.job;

import io.sluice.pipeline.DocumentOutput;
import io.sluice.pipeline.DocumentSource;
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
    /** Per folder, the stages writing it, in job order (two stages may share a folder, by file name). */
    private final Map<Path, List<String>> stagesOf = new LinkedHashMap<>();
    /** Per folder, the document outputs writing it, with their stages (a statistics folder has none). */
    private final Map<Path, List<Written>> documentOutputs = new LinkedHashMap<>();
    /** Per statistics folder (stats steps' outputs, merge_stats' outputs), the stage writing it first. */
    private final Map<Path, String> statsFolders = new LinkedHashMap<>();
    /** The job's logging dir, beside whose stage folders the ranks note the files they wrote. */
    private final Path loggingDir;

    private record Written(String stage, DocumentOutput output) {
    }

    /** For the folders of a job whose logging dir is {@code loggingDir}. */
    public WrittenFolders(Path loggingDir) {
        this.loggingDir = loggingDir;
    }

    /** Records the folders {@code step}, a step of stage {@code stage}, writes. */
    public void add(String stage, Step step) {
        if (step instanceof DocumentOutput.Writer w) {
            for (DocumentOutput o : w.documentOutputs()) {
                Path f = normal(o.dir());
                addStage(f, stage);
                documentOutputs.computeIfAbsent(f, k -> new ArrayList<>()).add(new Written(stage, o));
            }
        }
        if (step instanceof StatsStep st) {
            addStage(normal(st.output()), stage);
            statsFolders.putIfAbsent(normal(st.output()), stage);
        }
        if (step instanceof io.sluice.stats.MergeStats m) {
            statsFolders.putIfAbsent(normal(m.output()), stage);
        }
    }

    /**
     * The stage writing statistics that {@code reader} would read (inside its folder, or its folder inside theirs,
     * its glob matching their files), or null: it would read per-rank stats files as documents.
     */
    public String statsWriterReadBy(DocumentSource reader) {
        Path in = normal(reader.root());
        for (Map.Entry<Path, String> e : statsFolders.entrySet()) {
            if (in.startsWith(e.getKey())
                    || (e.getKey().startsWith(in) && reader.lists(e.getKey().resolve("summary/length/00000.json")))) {
                return e.getValue();
            }
        }
        return null;
    }

    private void addStage(Path folder, String stage) {
        List<String> stages = stagesOf.computeIfAbsent(folder, k -> new ArrayList<>());
        if (!stages.contains(stage)) {
            stages.add(stage);
        }
    }

    private static Path normal(Path folder) {
        return folder.toAbsolutePath().normalize();
    }

    /**
     * Whether what the recorded steps wrote into {@code folder} (or into folders inside it) is no document:
     * each of those folders exists, as a writer leaves it, and holds none of its writer's files, nor did its
     * ranks note any as written; and only document outputs write there. False when one is missing (not written yet, or deleted since) or holds
     * a file: then a reader finding nothing to read has a real problem, such as a glob that misses the files.
     */
    public boolean holdsNoDocuments(Path folder) throws IOException {
        Path in = normal(folder);
        for (Path out : stagesOf.keySet()) {
            if (!(in.startsWith(out) || out.startsWith(in))) {
                continue;
            }
            List<Written> outputs = documentOutputs.get(out);
            if (outputs == null || !Files.isDirectory(out)) {
                return false;
            }
            for (Written w : outputs) {
                // files there, or noted by its ranks as written (and deleted since): documents, not none
                if (!w.output().ownFiles().isEmpty() || !w.output().notedFiles(loggingDir.resolve(w.stage())).isEmpty()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The folders written by the stages of {@code job} before {@code stage}. */
    public static WrittenFolders before(Job job, Job.Stage stage) {
        WrittenFolders w = new WrittenFolders(job.loggingDir());
        for (Job.Stage s : job.stages()) {
            if (s.name().equals(stage.name())) {
                break;
            }
            s.steps().forEach(spec -> w.add(s.name(), StepRegistry.create(spec)));
        }
        return w;
    }

    /**
     * Refuses a reader of {@code src}'s folder that would list none of the files the earlier stages write
     * there (a glob of *.jsonl.gz for a zstd writer's 00000.jsonl.zst, say): validate and submit said OK, and
     * the stage failed on finding nothing, on Slurm hours after the stage before it. Only a reader of the
     * output folder itself is checked (one of a folder above it may read other files there, on purpose), and
     * outputs named by a metadata key ({@code ${language}/...}) are left out: a reader may pick some of their
     * folders.
     */
    public void checkListed(DocumentSource src, String where) {
        Path in = normal(src.root());
        List<Written> inside = documentOutputs.getOrDefault(in, List.of());
        if (inside.isEmpty()) {
            return;
        }
        for (Written w : inside) {
            if (w.output().namedByMetadata() || src.lists(w.output().sampleFile())) {
                return;
            }
        }
        Written first = inside.getFirst();
        throw new JobException(where + ": reads " + in + ", where stage '" + first.stage() + "' writes files such as "
                + in.relativize(normal(first.output().sampleFile())) + ", but this reader lists none of them; change its"
                + " glob (or recursive: false) to take them");
    }

    /** The stages, in job order, writing {@code folder}, into it or into a folder inside it; empty when none. */
    public List<String> stagesWriting(Path folder) {
        Path in = normal(folder);
        List<String> stages = new ArrayList<>();
        stagesOf.forEach((out, writers) -> {
            if (in.startsWith(out) || out.startsWith(in)) {
                writers.stream().filter(w -> !stages.contains(w)).forEach(stages::add);
            }
        });
        return stages;
    }
}
