package io.sluice.pipeline;

import io.sluice.doc.Document;
import java.io.IOException;

/**
 * One step of a pipeline. A new instance is made for every rank, so a step may keep per-rank state
 * in fields without synchronisation.
 *
 * <p>Lifecycle per rank: {@link #open} once, {@link #process} per document, {@link #finish} once
 * after the last document (publish outputs here), {@link #close} always, also after a failure
 * (release resources, never publish). Documents are views valid only during {@code process};
 * see {@link Document#detach()}.
 */
public interface Step {
    default void open(StepContext ctx) throws IOException {
    }

    /** Forward the document (or others) to {@code next}, or drop it by not forwarding. */
    void process(Document doc, DocumentSink next) throws IOException;

    /** End of input for this rank: emit buffered documents, write and commit outputs. */
    default void finish(DocumentSink next) throws IOException {
    }

    default void close() {
    }

    /**
     * What the step needs of its stage, checked when the job file is read: a one-line problem, or
     * null. {@code documents}: a reader comes before the step in the stage. By default a step works on
     * documents and needs one.
     */
    default String stageProblem(int tasks, boolean documents) {
        return documents ? null : "has no documents to work on: put read_jsonl before it";
    }
}
