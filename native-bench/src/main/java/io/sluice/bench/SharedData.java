package io.sluice.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the benchmarks find the shared data: {@code -Dsluice.shared=DIR} (as the tests), default {@code ../shared}
 * beside the project (bin/bench sets it); one benchmark's own corpus property ({@code sluice.bench.corpus},
 * {@code sluice.bench.jsonl}) overrides both. A missing file stops the benchmark with its path and the
 * properties to set, rather than a JMH stack trace about a NoSuchFileException.
 */
final class SharedData {
    private SharedData() {
    }

    /** {@code property}'s path if set, else {@code relative} under the shared data folder; it must exist. */
    static Path path(String property, String relative) {
        String given = System.getProperty(property);
        Path p = given != null ? Path.of(given)
                : Path.of(System.getProperty("sluice.shared", "../shared"), "data").resolve(relative);
        if (!Files.exists(p)) {
            throw new IllegalStateException("benchmark data not found: " + p.toAbsolutePath().normalize() + " (give -D"
                    + property + "=FILE, or the shared folder holding data/" + relative + ": bin/bench reads SLUICE_SHARED,"
                    + " else ../shared beside the project)");
        }
        return p;
    }
}
