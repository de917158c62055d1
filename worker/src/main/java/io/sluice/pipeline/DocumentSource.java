package io.sluice.pipeline;

import io.sluice.io.InputPiece;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A step that produces documents from files. It must be the first step of a stage; the executor
 * plans its files over the ranks ({@link io.sluice.io.ShardPlan}) and hands each rank its pieces.
 */
public interface DocumentSource extends Step {
    /** The folder the input files are relative to. */
    Path root();

    /** The input files, relative to {@link #root()} with '/' separators, sorted. */
    List<String> listFiles() throws IOException;

    /**
     * Files the reader's folder and glob held that the last {@link #listFiles()} left out (hidden names, unfinished
     * outputs), relative to {@link #root()}: said on the console, as datatrove would read them.
     */
    default List<String> leftOutFiles() {
        return List.of();
    }

    /**
     * Whether a file at {@code file} would be among {@link #listFiles()} (when it exists): in the folder read,
     * or below it when reading recursively, and matching the glob. Lets the job's checks find an output
     * that a re-run would read back as input.
     */
    boolean lists(Path file);

    /** Plain files larger than this are cut into line-aligned byte ranges; 0 = never. */
    long splitSize();

    /** Reads this rank's pieces and sends every document to {@code out}. */
    void read(List<InputPiece> pieces, DocumentSink out) throws IOException;

    /**
     * The path with symbolic links resolved as far as it exists: the output folder of a job that has not
     * run yet does not exist, but a link above it may point into the folder read.
     */
    static Path realPathOf(Path path) {
        Path p = path.toAbsolutePath().normalize();
        for (Path existing = p; existing != null; existing = existing.getParent()) {
            try {
                return existing.toRealPath().resolve(existing.relativize(p));
            } catch (IOException e) {
                // does not exist (yet): try its parent
            }
        }
        return p;
    }
}
