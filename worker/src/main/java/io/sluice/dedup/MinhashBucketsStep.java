package io.sluice.dedup;

import io.sluice.doc.Document;
import io.sluice.io.AtomicFile;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.Stream;

/**
 * {@code minhash_buckets}, MinHash stage 2 (datatrove's {@code MinhashDedupBuckets}): merges the
 * sorted signature files of one bucket and writes every pair of consecutive records with equal
 * bucket hashes to {@code <output>/<bucket:05d>_<worker:02d>.dups} as little-endian uint32
 * {@code (rank1, doc1, rank2, doc2)}, byte-compatible with datatrove.
 *
 * <p>The stage has no reader; the work happens in {@code finish}. As in datatrove the number of
 * ranks must be a multiple of {@code num_buckets}: rank r works on bucket {@code r / k} as worker
 * {@code r % k} (k = ranks / num_buckets), and the k workers of a bucket split it by ranges of the
 * first hash cut at evenly spaced records of the bucket's first file.
 *
 * <p>Keys: {@code input} (the signature folder of stage 1), {@code output}, the {@link MinhashConfig}
 * keys, {@code memory_limit} (read buffers shared by the bucket's files; default 256M). The merge
 * streams, so memory does not grow with the data.
 */
public final class MinhashBucketsStep implements Step {
    private final Path input;
    private final Path output;
    private final MinhashConfig config;
    private final long memoryLimit;
    private StepContext ctx;

    public MinhashBucketsStep(StepArgs args) {
        this.input = Path.of(args.requireString("input"));
        this.output = Path.of(args.requireString("output"));
        this.config = MinhashConfig.fromArgs(args);
        this.memoryLimit = args.integer("memory_limit", 256L << 20);
        if (memoryLimit < (1 << 20)) {
            throw args.error("memory_limit", "must be at least 1M, got " + memoryLimit);
        }
    }

    public MinhashBucketsStep(Path input, Path output, MinhashConfig config) {
        this.input = input;
        this.output = output;
        this.config = config;
        this.memoryLimit = 256L << 20;
    }

    /** The pairs file of one bucket worker, as datatrove names it. */
    public static Path dupsFile(Path folder, int bucket, int worker) {
        return folder.resolve(String.format("%05d_%02d.dups", bucket, worker));
    }

    @Override
    public String stageProblem(int tasks, boolean documents) {
        if (documents) {
            return "reads signature files, not documents: put no reader before it";
        }
        return tasks % config.numBuckets() == 0 ? null
                : "the number of tasks (" + tasks + ") must be a multiple of num_buckets (" + config.numBuckets() + ")";
    }

    /** The input folder (for the job's checks). */
    public Path input() {
        return input;
    }

    /** The output folder (for the job's checks). */
    public Path output() {
        return output;
    }

    @Override
    public void open(StepContext ctx) throws IOException {
        this.ctx = ctx;
        String problem = stageProblem(ctx.worldSize(), false);
        if (problem != null) {
            throw new IOException("minhash_buckets: " + problem);
        }
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        throw new IOException("minhash_buckets: " + stageProblem(ctx.worldSize(), true));
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        int workersPerBucket = ctx.worldSize() / config.numBuckets();
        int bucket = ctx.rank() / workersPerBucket;
        int worker = ctx.rank() % workersPerBucket;
        List<Path> files = sigFiles(bucket);
        int bufferBytes = (int) Math.min(1 << 20, Math.max(config.sigRecordBytes() * 16L,
                memoryLimit / Math.max(1, files.size())));
        List<SigFileReader> readers = new ArrayList<>();
        try {
            long[] range = hashRange(files, workersPerBucket, worker, bufferBytes);
            ctx.log().info(String.format("minhash_buckets: worker %d/%d on bucket %03d, %d files, hash range [%d, %d)",
                    worker + 1, workersPerBucket, bucket, files.size(), range[0], range[1]));
            for (int i = 0; i < files.size(); i++) {
                readers.add(new SigFileReader(files.get(i), i, config, bufferBytes, range[0], range[1]));
            }
            ctx.files().willWrite(dupsFile(output, bucket, worker));
            long pairs = mergeAndWritePairs(readers, dupsFile(output, bucket, worker));
            ctx.stats().add("total_matches", pairs);
        } finally {
            for (SigFileReader r : readers) {
                r.close();
            }
        }
    }

    private List<Path> sigFiles(int bucket) throws IOException {
        Path dir = input.resolve(MinhashSignatureStep.bucketDir(bucket));
        if (!Files.isDirectory(dir)) {
            throw new IOException("minhash_buckets: no signature folder " + dir + " (run minhash_signature first,"
                    + " with the same num_buckets)");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".minhash.sig")).sorted().toList();
        }
    }

    /** datatrove's split of a bucket among its workers: [min, max) of the first hash. */
    private long[] hashRange(List<Path> files, int workersPerBucket, int worker, int bufferBytes)
            throws IOException {
        long min = 0;
        long max = config.hashRangeEnd();
        if (workersPerBucket > 1 && !noSignatures(files)) {
            try (SigFileReader first = new SigFileReader(files.get(0), 0, config, bufferBytes, 0, max)) {
                long lines = first.records();
                if (lines < workersPerBucket) {
                    throw new IOException(files.get(0) + ": " + lines + " signatures cannot be split among "
                            + workersPerBucket + " workers per bucket; use fewer minhash_buckets tasks");
                }
                long step = lines / workersPerBucket;
                if (worker > 0) {
                    min = first.firstHash(step * worker);
                }
                if (worker + 1 < workersPerBucket) {
                    max = first.firstHash(step * (worker + 1));
                }
            }
        }
        return new long[] {min, max};
    }

    /**
     * True when the bucket has no signature: its input had no documents (an earlier stage kept none), so
     * there is no range to split and every worker writes an empty pairs file.
     */
    private static boolean noSignatures(List<Path> files) throws IOException {
        for (Path f : files) {
            if (Files.size(f) > 0) {
                return false;
            }
        }
        return true;
    }

    private long mergeAndWritePairs(List<SigFileReader> readers, Path target) throws IOException {
        int per = config.hashesPerBucket();
        Comparator<SigFileReader> order = (x, y) -> {
            int c = SigRecords.compare(x.row, 0, y.row, 0, per);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(x.fileIndex, y.fileIndex);
            return c != 0 ? c : Long.compare(x.row[per], y.row[per]);
        };
        PriorityQueue<SigFileReader> queue = new PriorityQueue<>(Math.max(1, readers.size()), order);
        for (SigFileReader r : readers) {
            if (r.next()) {
                queue.add(r);
            }
        }
        long[] last = new long[per];
        boolean hasLast = false;
        int lastRank = 0;
        long lastDoc = 0;
        long pairs = 0;
        ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        try (AtomicFile f = AtomicFile.create(target)) {
            while (!queue.isEmpty()) {
                SigFileReader r = queue.poll();
                if (hasLast && Arrays.equals(last, 0, per, r.row, 0, per)) {
                    if (out.remaining() < 16) {
                        f.write(out.array(), 0, out.position());
                        out.clear();
                    }
                    out.putInt(lastRank).putInt((int) lastDoc).putInt(r.fileRank).putInt((int) r.row[per]);
                    pairs++;
                }
                System.arraycopy(r.row, 0, last, 0, per);
                hasLast = true;
                lastRank = r.fileRank;
                lastDoc = r.row[per];
                if (r.next()) {
                    queue.add(r);
                }
            }
            f.write(out.array(), 0, out.position());
            f.commit();
        }
        return pairs;
    }
}
