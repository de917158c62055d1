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
 * with one record per document that has a signature, sorted ascending by (hashes, document index),
 * and {@code <output>/lengths/<rank:05d>.lengths} (text lengths, for {@code keep: longest}).
 * The document index is the document's position in this rank's input (counting documents without
 * a signature too), so stage 4 must read the same input with the same ranks. Documents pass through.
 *
 * <p>Keys: {@code output} (the signature folder, required), the {@link MinhashConfig} keys, and
 * {@code memory_limit} (default 512M). Records go to an unsorted temporary file per bucket while
 * reading (memory stays flat); at the end each bucket is sorted within {@code memory_limit}
 * (spilling sorted runs next to the output and merging them when it holds more) and renamed into place.
 */
public final class MinhashSignatureStep implements Step, io.sluice.pipeline.ListedOutput {
    static final long DEFAULT_MEMORY_LIMIT = 512L << 20;
    static final String UNSORTED_SUFFIX = ".unsorted" + AtomicFile.TMP_SUFFIX;
    private final Path output;
    private final MinhashConfig config;
    private final long memoryLimit;
    private ShingleSigner signer;
    private StepContext ctx;
    private OutputStream[] unsorted;
    private AtomicFile lengths;
    private OutputStream lengthsOut;
    private final byte[] lengthBytes = new byte[4];
    private Path[] unsortedPaths;
    private long[] sig;
    private ByteBuffer record;
    private long docIndex;
    private long signed;

    public MinhashSignatureStep(StepArgs args) {
        this.output = args.path("output");
        this.config = MinhashConfig.fromArgs(args);
        // datatrove's language picks the word tokenizer of the shingles; Sluice has the English one
        io.sluice.text.EnglishText.requireEnglish(args);
        this.memoryLimit = MinhashConfig.memoryLimit(args, DEFAULT_MEMORY_LIMIT);
    }

    public MinhashSignatureStep(Path output, MinhashConfig config) {
        this(output, config, DEFAULT_MEMORY_LIMIT);
    }

    /** @param memoryLimit bytes the final sort may hold; more records are sorted in runs on disk */
    public MinhashSignatureStep(Path output, MinhashConfig config, long memoryLimit) {
        this.output = output;
        this.config = config;
        this.memoryLimit = memoryLimit;
    }

    /**
     * Text lengths (uint32 code points per document index, little-endian) of one rank, for
     * {@code minhash_cluster}'s {@code keep: longest}; datatrove's stages ignore this folder.
     */
    public static Path lengthsFile(Path folder, int rank) {
        return folder.resolve("lengths").resolve(String.format("%05d.lengths", rank));
    }

    /** The file of one bucket of one rank, as datatrove names it. */
    public static Path sigFile(Path folder, int bucket, int rank) {
        return folder.resolve(bucketDir(bucket)).resolve(String.format("%05d.minhash.sig", rank));
    }

    static String bucketDir(int bucket) {
        return String.format("bucket_%03d", bucket);
    }

    @Override
    public Path listedFolder() {
        return output;
    }

    /** minhash_buckets reads every signature file of a bucket folder. */
    @Override
    public boolean isListed(String relative) {
        return relative.endsWith(".minhash.sig");
    }

    /** The output folder (for the job's checks). */
    public Path output() {
        return output;
    }

    /** The MinHash parameters (for the job's checks). */
    public MinhashConfig config() {
        return config;
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
        signer = new ShingleSigner(config);
        MinhashKeysFile.write(output, config); // the same bytes from every rank, so not one rank's file
        sig = new long[config.numHashes()];
        record = ByteBuffer.allocate(config.sigRecordBytes()).order(ByteOrder.LITTLE_ENDIAN);
        ctx.files().willWrite(lengthsFile(output, ctx.rank()));
        lengths = AtomicFile.create(lengthsFile(output, ctx.rank()));
        lengthsOut = new BufferedOutputStream(lengths, 1 << 16);
        int buckets = config.numBuckets();
        unsorted = new OutputStream[buckets];
        unsortedPaths = new Path[buckets];
        for (int bi = 0; bi < buckets; bi++) {
            Path target = sigFile(output, bi, ctx.rank());
            ctx.files().willWrite(target);
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
        writeLength(doc.text());
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

    private void writeLength(String text) throws IOException {
        int cps = text.codePointCount(0, text.length());
        for (int k = 0; k < 4; k++) {
            lengthBytes[k] = (byte) (cps >>> (8 * k));
        }
        lengthsOut.write(lengthBytes, 0, 4);
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        lengthsOut.flush();
        lengths.commit();
        for (OutputStream o : unsorted) {
            o.close();
        }
        SigFileSorter sorter = new SigFileSorter(config, memoryLimit);
        for (int bi = 0; bi < config.numBuckets(); bi++) {
            sorter.sort(unsortedPaths[bi], sigFile(output, bi, ctx.rank()));
            Files.delete(unsortedPaths[bi]);
        }
        ctx.log().info("minhash_signature: " + signed + " of " + docIndex + " documents signed, "
                + config.numBuckets() + " bucket files written under " + output);
    }

    @Override
    public void close() {
        if (unsorted == null) {
            return;
        }
        try {
            lengths.close();
        } catch (IOException e) {
            ctx.log().warn("could not remove a temporary lengths file: " + e.getMessage());
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
