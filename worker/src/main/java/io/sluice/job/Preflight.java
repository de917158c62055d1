package io.sluice.job;

import io.sluice.pipeline.DocumentSource;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.WriteJsonl;
import io.sluice.stats.MergeStats;
import io.sluice.stats.StatsStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks made before any work starts, each failing with one line: inputs exist and match their glob
 * (unless an earlier stage of the job writes them), outputs can be created, the logging dir is
 * writable.
 */
public final class Preflight {
    private Preflight() {
    }

    public static void check(Job job) throws IOException {
        writable(job.loggingDir(), "logging_dir");
        List<Path> producedByEarlierStages = new ArrayList<>();
        for (Job.Stage stage : job.stages()) {
            for (Job.StepSpec spec : stage.steps()) {
                Step step = StepRegistry.create(spec.type(), new StepArgs(spec.where(), spec.args()));
                if (step instanceof DocumentSource src && !producedBy(producedByEarlierStages, src.root())) {
                    try {
                        src.listFiles();
                    } catch (JobException e) {
                        throw new JobException(spec.where() + ": " + e.getMessage());
                    }
                }
                if (step instanceof StatsStep st) {
                    writable(st.output(), spec.where() + ": output");
                    producedByEarlierStages.add(st.output().toAbsolutePath().normalize());
                }
                if (step instanceof MergeStats m) {
                    if (!producedBy(producedByEarlierStages, m.input()) && !Files.isDirectory(m.input())) {
                        throw new JobException(spec.where() + ": input folder " + m.input().toAbsolutePath()
                                + " does not exist and no earlier step writes it");
                    }
                    writable(m.output(), spec.where() + ": output");
                }
                if (step instanceof WriteJsonl w) {
                    writable(w.dir(), spec.where() + ": path");
                    producedByEarlierStages.add(w.dir().toAbsolutePath().normalize());
                }
            }
        }
    }

    private static boolean producedBy(List<Path> outputs, Path input) {
        Path in = input.toAbsolutePath().normalize();
        return outputs.stream().anyMatch(o -> in.startsWith(o) || o.startsWith(in));
    }

    private static void writable(Path dir, String what) {
        Path d = dir.toAbsolutePath();
        try {
            Files.createDirectories(d);
            Path probe = Files.createTempFile(d, ".sluice-probe", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new JobException(what + ": output folder " + d + " is not writable (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }
}
