package io.sluice.dedup;

import io.sluice.doc.Document;
import io.sluice.io.AtomicFile;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code minhash_signature}, MinHash stage 1 (datatrove's {@code MinhashDedupSignature}): computes
 * each document's signature and writes, per bucket, {@code <output>/bucket_XXX/<rank:05d>.minhash.sig}
 * with one record per document that has a signature, sorted ascending by (hashes, document index).
 * The document index is the document's position in this rank's input (counting documents without
 * a signature too), so stage 4 must read the same input with the same ranks. Documents pass through.
 *
 * <p>Keys: {@code output} (the signature folder, required) and the {@link MinhashConfig} keys.
 * Records go to an unsorted temporary file per bucket while reading (memory stays flat); at the end
 * each bucket in turn is loaded (record size x documents of this rank), sorted and renamed into place.
 */
public final class MinhashSignatureStep implements Step {
    static final String UNSORTED_SUFFIX = ".unsorted" + AtomicFile.TMP_SUFFIX;
    private final Path output;
    private final MinhashConfig config;
    private ShingleSigner signer;
    private StepContext ctx;
    private OutputStream[] unsorted;
    private Path[] unsortedPaths;
    private long[] sig;
    private ByteBuffer record;
    private long docIndex;
    private long signed;

    public MinhashSignatureStep(StepArgs args) {
        this.output = Path.of(args.requireString("output"));
        this.config = MinhashConfig.fromArgs(args);
    }

    public MinhashSignatureStep(Path output, MinhashConfig config) {
        this.output = output;
        this.config = config;
    }

    /** The file of one bucket of one rank, as datatrove names it. */
    public static Path sigFile(Path folder, int bucket, int rank) {
        return folder.resolve(bucketDir(bucket)).resolve(String.format("%05d.minhash.sig", rank));
    }

    static String bucketDir(int bucket) {
        return String.format("bucket_%03d", bucket);
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
        signer = new ShingleSigner(config);
        sig = new long[config.numHashes()];
        record = ByteBuffer.allocate(config.sigRecordBytes()).order(ByteOrder.LITTLE_ENDIAN);
        int buckets = config.numBuckets();
        unsorted = new OutputStream[buckets];
        unsortedPaths = new Path[buckets];
        for (int bi = 0; bi < buckets; bi++) {
            Path target = sigFile(output, bi, ctx.rank());
            Files.createDirectories(target.getParent());
            unsortedPaths[bi] = target.resolveSibling(target.getFileName() + UNSORTED_SUFFIX);
            unsorted[bi] = new BufferedOutputStream(Files.newOutputStream(unsortedPaths[bi]), 1 << 16);
        }
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        long index = docIndex++;
        if (index > 0xFFFFFFFFL) {
            throw new IOException("minhash_signature: more than 2^32 documents in rank " + ctx.rank()
                    + "; the signature format stores the document index as uint32");
        }
        ctx.stats().increment("total");
        if (signer.sign(doc.text(), sig)) {
            signed++;
            int per = config.hashesPerBucket();
            for (int bi = 0; bi < config.numBuckets(); bi++) {
                record.clear();
                SigRecords.put(record, sig, bi * per, per, index, config.hashBytes());
                unsorted[bi].write(record.array(), 0, record.position());
            }
        } else {
            ctx.stats().increment("no_signature");
        }
        next.accept(doc);
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        for (OutputStream o : unsorted) {
            o.close();
        }
        for (int bi = 0; bi < config.numBuckets(); bi++) {
            sortBucket(unsortedPaths[bi], sigFile(output, bi, ctx.rank()));
            Files.delete(unsortedPaths[bi]);
        }
        ctx.log().info("minhash_signature: " + signed + " of " + docIndex + " documents signed, "
                + config.numBuckets() + " bucket files written under " + output);
    }

    private void sortBucket(Path from, Path to) throws IOException {
        int width = config.hashesPerBucket() + 1;
        int recBytes = config.sigRecordBytes();
        long size = Files.size(from);
        long rows = size / recBytes;
        if (rows * width > Integer.MAX_VALUE - 8) {
            throw new IOException("minhash_signature: " + rows + " signatures in one rank is more than one bucket"
                    + " sort holds; use more ranks");
        }
        long[] data = new long[(int) (rows * width)];
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(from)).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
            SigRecords.get(in, data, r * width, width - 1, config.hashBytes());
        }
        int[] order = SigRecords.sortedOrder(data, width, (int) rows);
        ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        try (AtomicFile f = AtomicFile.create(to)) {
            for (int r : order) {
                if (out.remaining() < recBytes) {
                    f.write(out.array(), 0, out.position());
                    out.clear();
                }
                SigRecords.put(out, data, r * width, width - 1, data[r * width + width - 1], config.hashBytes());
            }
            f.write(out.array(), 0, out.position());
            f.commit();
        }
    }

    @Override
    public void close() {
        if (unsorted == null) {
            return;
        }
        for (int bi = 0; bi < unsorted.length; bi++) {
            try {
                if (unsorted[bi] != null) {
                    unsorted[bi].close();
                }
                Files.deleteIfExists(unsortedPaths[bi]);
            } catch (IOException e) {
                ctx.log().warn("could not remove " + unsortedPaths[bi] + ": " + e.getMessage());
            }
        }
    }
}
