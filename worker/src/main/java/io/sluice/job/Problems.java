package io.sluice.job;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The mistakes of one job file, told together: a datatrove job translated by hand has several, and one
 * round of validate per mistake was slow going. A key that cannot be read gives a fallback, so that the
 * keys and steps after it are still read. The launcher adds the problems of the {@code slurm:} blocks here,
 * which it alone reads ({@link JobFile.SlurmCheck}).
 */
public final class Problems {
    private final List<String> found = new ArrayList<>();

    /** What {@code read} gives, or {@code fallback} with its problem noted. */
    public <T> T get(Supplier<T> read, T fallback) {
        try {
            return read.get();
        } catch (JobException e) {
            found.addAll(e.problems());
            return fallback;
        }
    }

    public void check(Runnable check) {
        get(() -> {
            check.run();
            return null;
        }, null);
    }

    public void add(String problem) {
        found.add(problem);
    }

    /** A problem told before those found since {@code size()} was {@code index}. */
    void add(int index, String problem) {
        found.add(index, problem);
    }

    public int size() {
        return found.size();
    }

    /** One problem as its own message; several as "N problems:", one a line ({@link JobException#of}). */
    public void throwIfAny() {
        if (!found.isEmpty()) {
            throw JobException.of(found);
        }
    }
}
