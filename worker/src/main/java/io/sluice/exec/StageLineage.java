package io.sluice.exec;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.io.AtomicFile;
import io.sluice.io.Completions;
import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.StageInputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Which run of the stages before it a stage's completed ranks were made from. Each stage's logging
 * folder gets a {@code run_id}, made once, which goes when the folder is deleted to run the stage again;
 * {@code made_from.json} holds the run ids of the stages it reads from (those it names in {@code depends},
 * and the earlier stages whose outputs its readers read), recorded when its ranks start from none
 * completed.
 *
 * <p>When an upstream stage runs again, a later stage's completed ranks still hold what the old run
 * produced, and skipping them would mix old and new documents without a word: {@link #check} refuses
 * such a job and names every logging folder to delete. Logging folders of versions before this one hold
 * no record and are not checked.
 */
final class StageLineage {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RUN_ID = "run_id";
    private static final String MADE_FROM = "made_from.json";

    private final Job job;
    private final StageInputs inputs;

    StageLineage(Job job) {
        this.job = job;
        this.inputs = new StageInputs(job);
    }

    /**
     * Refuses the job when a stage has completed ranks made from a run of an upstream stage that is no
     * longer the one on disk (its logging folder was deleted, or it ran again), or from a stage that is
     * itself refused for that reason.
     */
    void check() throws IOException {
        List<String> stale = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            Path dir = job.stageDir(stage);
            if (Completions.completedRanks(dir).isEmpty()) {
                continue;
            }
            Map<String, String> madeFrom = madeFrom(dir);
            if (madeFrom == null) {
                continue; // made by a version that kept no record: nothing to compare with
            }
            Set<String> inputs = new LinkedHashSet<>(this.inputs.of(stage));
            for (String l : this.inputs.listedOnly(stage)) {
                if (!madeFrom.containsKey(l)) {
                    inputs.remove(l);
                }
            }
            if (!madeFrom.keySet().equals(inputs)) {
                // another stage now makes its input (a stage renamed, a depends changed): not what it was made from
                stale.add(stage.name());
                reasons.add("'" + stage.name() + "' was made from " + names(madeFrom.keySet()) + " and now reads "
                        + names(inputs));
                continue;
            }
            for (String up : inputs) {
                String recorded = madeFrom.get(up);
                if (stale.contains(up)) {
                    stale.add(stage.name());
                    reasons.add("'" + stage.name() + "' reads from '" + up + "'");
                    break;
                }
                if (!Objects.equals(recorded, runId(job.stageDir(job.stage(up))))) {
                    stale.add(stage.name());
                    reasons.add("'" + stage.name() + "' was made from an earlier run of '" + up + "'");
                    break;
                }
            }
        }
        if (!stale.isEmpty()) {
            List<String> folders = stale.stream().map(s -> job.stageDir(job.stage(s)).toString()).toList();
            throw new JobException("stage(s) " + String.join(", ", stale.stream().map(s -> "'" + s + "'").toList())
                    + " have completed ranks made from the output of an earlier run (" + String.join("; ", reasons)
                    + "); they would be skipped and their old outputs used with the new ones. Delete "
                    + String.join(" and ", folders) + " to run them again, or use a new logging_dir");
        }
    }

    /**
     * Gives each stage a run id if it has none; returns the stages this call gave one (a first run, or the
     * stage's folder was deleted to run it again), whose ranks' earlier files are then all stale.
     */
    List<Job.Stage> ensureRunIds() throws IOException {
        List<Job.Stage> fresh = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            if (ensureRunId(job.stageDir(stage))) {
                fresh.add(stage);
            }
        }
        return fresh;
    }

    /**
     * Records the run ids of the stages {@code stage} reads from, as its ranks start from none completed
     * (or all run again): what its outputs are then made from.
     */
    void recordInputs(Job.Stage stage) throws IOException {
        Map<String, String> ids = new LinkedHashMap<>();
        for (String up : inputs.of(stage)) {
            ids.put(up, runId(job.stageDir(job.stage(up))));
        }
        AtomicFile.writeShared(job.stageDir(stage).resolve(MADE_FROM), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(ids));
    }

    /** The stage {@code name} and every stage after it that reads from it, directly or not. */
    List<String> downstreamOf(String name) {
        return inputs.downstreamOf(name);
    }

    /** A new run id for the stage, whose completed output was removed to run it again. */
    static void renewRunId(Path stageDir) throws IOException {
        Files.deleteIfExists(stageDir.resolve(RUN_ID));
        ensureRunId(stageDir);
    }

    private static String runId(Path stageDir) throws IOException {
        Path f = stageDir.resolve(RUN_ID);
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8).strip() : null;
    }

    /**
     * Creates the run id once: several machines starting the same job at once all end up with the first one.
     * True for the call that made it.
     */
    private static boolean ensureRunId(Path stageDir) throws IOException {
        Path f = stageDir.resolve(RUN_ID);
        if (Files.exists(f)) {
            return false;
        }
        Files.createDirectories(stageDir);
        // a name prepareStage's cleanup knows: a process killed before the finally below left it for good
        Path tmp = AtomicFile.sharedTemporaryOf(f);
        Files.writeString(tmp, UUID.randomUUID() + "\n", StandardCharsets.UTF_8);
        try {
            Files.createLink(f, tmp); // fails when another process made it first
            return true;
        } catch (FileAlreadyExistsException e) {
            return false; // theirs stands
        } catch (IOException | UnsupportedOperationException e) {
            // a file system without hard links: a rename, which another process's rename may still replace
            if (!Files.exists(f)) {
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
                return true;
            }
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The recorded run ids, or null when there is no record (or none this version reads). */
    private static Map<String, String> madeFrom(Path stageDir) {
        Path f = stageDir.resolve(MADE_FROM);
        if (!Files.exists(f)) {
            return null;
        }
        try {
            return JSON.readValue(f.toFile(), new TypeReference<Map<String, String>>() { });
        } catch (IOException e) {
            return null;
        }
    }

    private static String names(Set<String> stages) {
        return stages.isEmpty() ? "no earlier stage" : stages.stream().map(n -> "'" + n + "'").collect(Collectors.joining(", "));
    }
}
