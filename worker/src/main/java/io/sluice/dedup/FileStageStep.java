package io.sluice.dedup;

import io.sluice.doc.Document;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;

/**
 * A MinHash step that reads an earlier stage's files, not documents, and does its work in {@link #finish}:
 * its {@code stageProblem} refuses a reader before it, so {@link #process} is never called.
 */
abstract class FileStageStep implements Step {
    private final String name;
    protected StepContext ctx;

    FileStageStep(String name) {
        this.name = name;
    }

    @Override
    public void open(StepContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public final void process(Document doc, DocumentSink next) {
        throw new IllegalStateException(name + " takes no documents");
    }
}
