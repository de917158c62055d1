package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.JsonlWriter;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Base of every filter: a subclass only says keep or drop (with a reason) in {@link #filter}.
 * This class counts {@code dropped} and {@code dropped_<reason>} and, when the job file gives
 * {@code exclusion_output}, writes each dropped document there with {@code metadata.filter_reason}.
 *
 * <p>{@code exclusion_output} is a folder, or a mapping {@code {path, compression, output_filename, max_file_size}}.
 */
public abstract class Filter implements Step, DocumentOutput.Writer {
    private final DocumentOutput exclusion;
    private JsonlWriter exclusionWriter;
    protected StepContext ctx;

    protected Filter(StepArgs args) {
        Object spec = args.raw().get("exclusion_output");
        if (spec instanceof Map<?, ?>) {
            StepArgs ex = StepArgs.ofStep(args.where() + ".exclusion_output", args.map("exclusion_output"));
            exclusion = args.readOn(() -> {
                DocumentOutput out = DocumentOutput.of(ex, true); // datatrove's exclusion_writer is a JsonlWriter, max_file_size included
                ex.requireAllUsed();
                return out;
            }, null);
        } else {
            java.nio.file.Path dir = args.optionalPath("exclusion_output", null);
            if (dir != null && dir.toString().isBlank()) {
                // Path.of("") is the current folder: the dropped documents went wherever the job was started
                throw args.error("exclusion_output", "is empty: name a folder for the dropped documents, or leave the key out");
            }
            exclusion = dir == null ? null : DocumentOutput.inFolder(dir);
        }
    }

    /** Keep the document, or drop it with a short reason (used in counter names and metadata). */
    public abstract Verdict filter(Document doc);

    @Override
    public List<DocumentOutput> documentOutputs() {
        return exclusion == null ? List.of() : List.of(exclusion);
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
        if (exclusion != null) {
            exclusionWriter = exclusion.open(ctx);
        }
    }

    @Override
    public final void process(Document doc, DocumentSink next) throws IOException {
        Verdict v = filter(doc);
        if (v.keep()) {
            next.accept(doc);
            return;
        }
        String reason = v.reason() == null ? "filtered" : v.reason();
        ctx.stats().increment("dropped");
        ctx.stats().increment("dropped_" + reason);
        if (exclusionWriter != null) {
            doc.putMetadata("filter_reason", reason);
            exclusionWriter.write(doc);
        }
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        if (exclusionWriter != null) {
            exclusionWriter.commit();
        }
    }

    @Override
    public void close() {
        if (exclusionWriter != null) {
            try {
                exclusionWriter.close();
            } catch (IOException e) {
                ctx.log().warn("could not remove a temporary exclusion file: " + e.getMessage());
            }
        }
    }
}
