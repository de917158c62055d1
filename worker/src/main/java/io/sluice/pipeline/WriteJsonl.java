package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.Compression;
import io.sluice.io.JsonlWriter;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code write_jsonl}: writes every document it sees and passes it on. Keys: {@code path},
 * {@code compression} ({@code zstd} default, {@code gzip}, {@code none}), {@code output_filename}
 * (default {@code ${rank}.jsonl.zst}; {@code ${rank}} and metadata keys), {@code max_file_size}
 * (e.g. {@code 1G}; rolls over to a new file).
 */
public final class WriteJsonl implements Step {
    private final Path dir;
    private final Compression compression;
    private final String template;
    private final long maxFileSize;
    private JsonlWriter writer;
    private StepContext ctx;

    public WriteJsonl(StepArgs args) {
        dir = Path.of(args.requireString("path"));
        String c = args.choice("compression", "zstd", "zstd", "gzip", "none");
        compression = Compression.fromConfig(c);
        template = args.string("output_filename", JsonlWriter.defaultTemplate(compression));
        maxFileSize = args.integer("max_file_size", 0);
    }

    public Path dir() {
        return dir;
    }

    @Override
    public void open(StepContext ctx) {
        this.ctx = ctx;
        writer = new JsonlWriter(dir, template, compression, maxFileSize, ctx.rank());
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
