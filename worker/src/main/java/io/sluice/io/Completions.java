package io.sluice.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.stream.Stream;

/**
 * Completion markers: {@code <stage dir>/completions/NNNNN}, an empty file written last, after every
 * output of the rank is in place. A rank with a marker is done and is skipped by a re-run.
 */
public final class Completions {
    private Completions() {
    }

    /** The folder of a stage's markers (also read by the sbatch scripts' requeue trap). */
    public static Path folder(Path stageDir) {
        return stageDir.resolve("completions");
    }

    public static Path marker(Path stageDir, int rank) {
        return folder(stageDir).resolve(String.format("%05d", rank));
    }

    public static boolean isComplete(Path stageDir, int rank) {
        return Files.exists(marker(stageDir, rank));
    }

    public static void markComplete(Path stageDir, int rank) throws IOException {
        AtomicFile.write(marker(stageDir, rank), new byte[0]);
    }

    /** Removes the rank's marker, before anything of its earlier outputs is removed. */
    public static void unmark(Path stageDir, int rank) throws IOException {
        Files.deleteIfExists(marker(stageDir, rank));
    }

    /** Whether ranks {@code 0 .. tasks - 1} all have a marker. */
    public static boolean allComplete(Path stageDir, int tasks) throws IOException {
        return completedRanks(stageDir).nextClearBit(0) >= tasks;
    }

    /** Ranks with a marker (names that are not a rank's, {@link RankName}, are ignored). */
    public static BitSet completedRanks(Path stageDir) throws IOException {
        BitSet done = new BitSet();
        Path dir = folder(stageDir);
        if (!Files.isDirectory(dir)) {
            return done;
        }
        try (Stream<Path> s = Files.list(dir)) {
            // rank 100000 and on too: their markers went uncounted, and submit sent those ranks again every time
            s.mapToInt(p -> RankName.parse(p.getFileName().toString())).filter(r -> r >= 0).forEach(done::set);
        }
        return done;
    }
}
