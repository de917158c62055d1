package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.JsonlWriter;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.util.List;

/**
 * {@code write_jsonl}: writes every document it sees and passes it on. Keys: {@code path},
 * {@code compression} ({@code zstd} default, {@code gzip}, {@code none}), {@code output_filename}
 * (default {@code ${rank}.jsonl.zst}; {@code ${rank}} and metadata keys; see {@link DocumentOutput}),
 * {@code max_file_size} (e.g. {@code 1G}; rolls over to a new file).
 */
public final class WriteJsonl implements Step, DocumentOutput.Writer {
    private final DocumentOutput output;
    private JsonlWriter writer;
    private StepContext ctx;

    public WriteJsonl(StepArgs args) {
        output = DocumentOutput.of(args, true);
    }

    @Override
    public List<DocumentOutput> documentOutputs() {
        return List.of(output);
    }

    @Override
    public void open(StepContext ctx) {
        this.ctx = ctx;
        writer = output.open(ctx);
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        writer.write(doc);
        next.accept(doc);
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        ctx.stats().add("files_written", writer.commit().size());
        ctx.stats().add("documents_written", writer.documents());
    }

    @Override
    public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            ctx.log().warn("could not remove a temporary output file: " + e.getMessage());
        }
    }
}
