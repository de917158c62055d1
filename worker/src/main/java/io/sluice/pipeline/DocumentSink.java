package io.sluice.pipeline;

import io.sluice.doc.Document;
import java.io.IOException;

/** Where a step sends the documents it keeps: the next step, or nothing at the end of the pipeline. */
@FunctionalInterface
public interface DocumentSink {
    void accept(Document doc) throws IOException;

    DocumentSink DISCARD = doc -> { };
}
