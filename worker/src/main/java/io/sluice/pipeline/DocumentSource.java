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
     * Whether a file at {@code file} would be among {@link #listFiles()} (when it exists): in the folder read,
     * or below it when reading recursively, and matching the glob. Lets the job's checks find an output
     * that a re-run would read back as input.
     */
    boolean lists(Path file);

    /** Plain files larger than this are cut into line-aligned byte ranges; 0 = never. */
    long splitSize();

    /** Reads this rank's pieces and sends every document to {@code out}. */
    void read(List<InputPiece> pieces, DocumentSink out) throws IOException;
}
