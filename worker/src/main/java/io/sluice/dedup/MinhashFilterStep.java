package io.sluice.dedup;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.StepContext;
import io.sluice.pipeline.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code minhash_filter}, MinHash stage 4 (datatrove's {@code MinhashDedupFilter}): drops the
 * documents stage 3 listed in {@code <input>/<rank:06d>.remove}. Document indices are positions in
 * this rank's input, so this stage must read exactly what {@code minhash_signature} read, with the
 * same ranks. A rank without a .remove file keeps everything (datatrove does the same).
 *
 * <p>Keys: {@code input} (stage 3's output folder), {@code exclusion_output} (see {@link Filter};
 * dropped documents get {@code filter_reason: minhash_duplicate}), {@code cluster_metadata}
 * (default false): put {@code minhash_cluster_id} and {@code minhash_cluster_size} in every
 * document's metadata, from stage 3's .clusters/.sizes files (which need {@code cluster_metadata:
 * true} there too); documents in no cluster get -1 and 1, as datatrove gives them.
 */
public final class MinhashFilterStep extends Filter implements io.sluice.pipeline.ListedOutput.Reader {
    private final Path input;
    private final boolean clusterMetadata;
    private U32File remove;
    private U32File clusters;
    private U32File sizes;
    private long docIndex;

    public MinhashFilterStep(StepArgs args) {
        super(args);
        this.input = args.path("input");
        this.clusterMetadata = args.bool("cluster_metadata", false);
    }

    /** The input folder (for the job's checks). */
    public Path input() {
        return input;
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        super.open(ctx);
        Path removePath = MinhashClusterStep.removeFile(input, ctx.rank());
        if (Files.isRegularFile(removePath)) {
            remove = new U32File(removePath, 1);
        } else {
            ctx.log().warn("minhash_filter: no " + removePath + "; rank " + ctx.rank() + " removes nothing");
        }
        if (clusterMetadata) {
            Path clustersPath = MinhashClusterStep.clustersFile(input, ctx.rank());
            clusters = optional(clustersPath);
            Path sizesPath = MinhashClusterStep.sizesFile(input, ctx.rank());
            sizes = optional(sizesPath);
            if (remove != null && clusters == null) {
                // a rank with duplicates has cluster files when stage 3 kept them; every document would get -1
                throw new IOException("minhash_filter: cluster_metadata needs " + clustersPath
                        + ", which minhash_cluster writes only with cluster_metadata: true (there is " + removePath
                        + " without it)");
            }
            if (clusters != null && sizes == null) {
                // every clustered document would get a size of 1 (datatrove writes .sizes only with save_cluster_size)
                throw new IOException("minhash_filter: cluster_metadata needs " + sizesPath + " beside " + clustersPath
                        + "; minhash_cluster writes both (datatrove: save_cluster_size=True)");
            }
        }
    }


    private static U32File optional(Path p) throws IOException {
        return Files.isRegularFile(p) ? new U32File(p, 2) : null;
    }

    @Override
    public Verdict filter(Document doc) {
        long index = docIndex++;
        try {
            if (clusterMetadata) {
                doc.putMetadata("minhash_cluster_id", lookup(clusters, index, -1));
                doc.putMetadata("minhash_cluster_size", lookup(sizes, index, 1));
            }
            if (remove != null && remove.has() && remove.value(0) == index) {
                remove.advance();
                return Verdict.drop("minhash_duplicate");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return Verdict.KEEP;
    }

    private static long lookup(U32File f, long index, long dflt) throws IOException {
        if (f != null && f.has() && f.value(0) == index) {
            long v = f.value(1);
            f.advance();
            return v;
        }
        return dflt;
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        for (U32File f : new U32File[] {remove, clusters, sizes}) {
            if (f != null && f.has()) {
                throw new IOException(f.path() + " names document index " + f.value(0) + " but rank " + ctx.rank()
                        + " read only " + docIndex + " documents; minhash_filter must read the same input as"
                        + " minhash_signature");
            }
        }
        super.finish(next);
    }

    @Override
    public void close() {
        for (U32File f : new U32File[] {remove, clusters, sizes}) {
            if (f != null) {
                try {
                    f.close();
                } catch (IOException ignored) {
                    // nothing was written; nothing to clean up
                }
            }
        }
        super.close();
    }
}
