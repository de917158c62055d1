package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.Compression;
import io.sluice.io.JsonlWriter;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Base of every filter: a subclass only says keep or drop (with a reason) in {@link #filter}.
 * This class counts {@code dropped} and {@code dropped_<reason>} and, when the job file gives
 * {@code exclusion_output}, writes each dropped document there with {@code metadata.filter_reason}.
 *
 * <p>{@code exclusion_output} is a folder, or a mapping {@code {path, compression, output_filename}}.
 */
public abstract class Filter implements Step {
    private final Path exclusionDir;
    private final Compression exclusionCompression;
    private final String exclusionTemplate;
    private JsonlWriter exclusionWriter;
    protected StepContext ctx;

    protected Filter(StepArgs args) {
        Object spec = args.raw().get("exclusion_output");
        if (spec instanceof Map<?, ?>) {
            StepArgs ex = new StepArgs(args.where() + ".exclusion_output", args.map("exclusion_output"));
            exclusionDir = Path.of(ex.requireString("path"));
            exclusionCompression = compression(ex, ex.string("compression", "zstd"));
            exclusionTemplate = ex.string("output_filename", JsonlWriter.defaultTemplate(exclusionCompression));
            ex.requireAllUsed();
        } else {
            String dir = args.string("exclusion_output", null);
            exclusionDir = dir == null ? null : Path.of(dir);
            exclusionCompression = Compression.ZSTD;
            exclusionTemplate = JsonlWriter.defaultTemplate(Compression.ZSTD);
        }
    }

    private static Compression compression(StepArgs args, String word) {
        try {
            return Compression.fromConfig(word);
        } catch (IllegalArgumentException e) {
            throw args.error("compression", e.getMessage().replace("compression ", ""));
        }
    }

    /** Keep the document, or drop it with a short reason (used in counter names and metadata). */
    public abstract Verdict filter(Document doc);

    /** The folder dropped documents go to, or null. */
    public Path exclusionOutput() {
        return exclusionDir;
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
        if (exclusionDir != null) {
            exclusionWriter = new JsonlWriter(exclusionDir, exclusionTemplate, exclusionCompression, 0, ctx.rank());
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
