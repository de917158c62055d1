package io.sluice.dedup;

import io.sluice.io.AtomicFile;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 *
 * <p>Deduplicating against an index (datatrove's keys): {@code index_folder} holds, per bucket,
 * {@code bucket_XXX/*.minhash.index} files of another corpus ({@link MinhashBuildIndexStep}); a document
 * with the same bucket hashes as an index record is written as the pair
 * {@code (0xFFFFFFFF, 0xFFFFFFFF, rank, doc)}, and {@code minhash_cluster} removes every document joined
 * to such a pair. With {@code only_dedup_in_index} (default true, as datatrove) pairs within this corpus
 * are not written. {@code create_index_name} adds this corpus's own bucket hashes that are in no index
 * to {@code index_folder} as {@code bucket_XXX/<name>_<worker:02d>.minhash.index} (files of that name are
 * not read). One deliberate difference: with {@code only_dedup_in_index}, datatrove pairs only the first
 * of several documents matching the same index record with the index and the others with nothing, so they
 * stay; here each is paired with the index. Otherwise the pairs are datatrove's, byte for byte.
 */
public final class MinhashBucketsStep extends FileStageStep implements io.sluice.pipeline.ListedOutput,
        io.sluice.pipeline.ListedOutput.Reader {
    /** The file and document of the index in a pair (datatrove's SENTINEL: uint32 -1). */
    static final int SENTINEL = -1;
    private final Path input;
    private final Path output;
    private final MinhashConfig config;
    private final long memoryLimit;
    private final Path indexFolder;
    private final boolean onlyDedupInIndex;
    private final String createIndexName;

    public MinhashBucketsStep(StepArgs args) {
        super("minhash_buckets");
        this.input = args.path("input");
        this.output = args.path("output");
        this.config = MinhashConfig.fromArgs(args);
        this.memoryLimit = MinhashConfig.memoryLimit(args, 256L << 20);
        this.indexFolder = args.optionalPath("index_folder", null);
        this.onlyDedupInIndex = args.bool("only_dedup_in_index", true);
        if (indexFolder == null && args.has("only_dedup_in_index")) {
            throw args.error("only_dedup_in_index", "says how to deduplicate against an index: it needs index_folder");
        }
        this.createIndexName = args.string("create_index_name", null);
        if (createIndexName != null) {
            String problem = MinhashBuildIndexStep.indexNameProblem(createIndexName);
            if (problem != null) {
                throw args.error("create_index_name", problem);
            }
            if (indexFolder == null) {
                throw args.error("create_index_name", "needs index_folder: the folder the new index files go to");
            }
        }
    }

    public MinhashBucketsStep(Path input, Path output, MinhashConfig config) {
        super("minhash_buckets");
        this.input = input;
        this.output = output;
        this.config = config;
        this.memoryLimit = 256L << 20;
        this.indexFolder = null;
        this.onlyDedupInIndex = true;
        this.createIndexName = null;
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

    @Override
    public Path listedFolder() {
        return output;
    }

    /** minhash_cluster reads every .dups file of the folder. */
    @Override
    public boolean isListed(String relative) {
        return relative.endsWith(".dups");
    }

    /** The output folder (for the job's checks). */
    public Path output() {
        return output;
    }

    /** The MinHash parameters (for the job's checks). */
    public MinhashConfig config() {
        return config;
    }

    /** The index folder it reads, or null; and whether it writes one there ({@code create_index_name}). */
    public Path indexFolder() {
        return indexFolder;
    }

    public boolean createsIndex() {
        return createIndexName != null;
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        int workersPerBucket = ctx.worldSize() / config.numBuckets();
        int bucket = ctx.rank() / workersPerBucket;
        int worker = ctx.rank() % workersPerBucket;
        String layout = MinhashKeysFile.layoutMismatch(input, config);
        if (layout != null) {
            throw new IOException("minhash_buckets: " + layout);
        }
        List<Path> files = sigFiles(input, bucket);
        List<Path> indexFiles = indexFiles(bucket);
        if (!indexFiles.isEmpty()) {
            String mismatch = MinhashKeysFile.mismatch(indexFolder, MinhashKeysFile.read(input), ownIndexFile());
            if (mismatch != null) {
                throw new IOException("minhash_buckets: index_folder " + indexFolder + " " + mismatch);
            }
        }
        int bufferBytes = config.mergeBufferBytes(memoryLimit, files.size() + indexFiles.size());
        List<SigFileReader> readers = new ArrayList<>();
        try {
            long[] range = hashRange(files, workersPerBucket, worker, bufferBytes);
            ctx.log().info(String.format("minhash_buckets: worker %d/%d on bucket %03d, %d files, %d index files,"
                    + " hash range [%d, %d)", worker + 1, workersPerBucket, bucket, files.size(), indexFiles.size(),
                    range[0], range[1]));
            for (int i = 0; i < files.size(); i++) {
                readers.add(new SigFileReader(files.get(i), i, config, bufferBytes, range[0], range[1]));
            }
            for (Path f : indexFiles) {
                readers.add(SigFileReader.index(f, config, bufferBytes, range[0], range[1]));
            }
            ctx.files().willWrite(dupsFile(output, bucket, worker));
            Path newIndex = null;
            if (createIndexName != null) {
                newIndex = MinhashBuildIndexStep.indexFile(indexFolder, bucket, createIndexName + String.format("_%02d", worker));
                ctx.files().willWrite(newIndex);
                String unrecorded = MinhashKeysFile.recordIndexKeys(indexFolder, input, ownIndexFile());
                if (unrecorded != null) {
                    ctx.log().info("minhash_buckets: " + unrecorded);
                }
            }
            mergeAndWritePairs(readers, !indexFiles.isEmpty(), dupsFile(output, bucket, worker), newIndex);
        } finally {
            for (SigFileReader r : readers) {
                r.close();
            }
        }
    }

    /** The signature files of one bucket, sorted by name (datatrove's file order). */
    static List<Path> sigFiles(Path input, int bucket) throws IOException {
        Path dir = input.resolve(MinhashSignatureStep.bucketDir(bucket));
        if (!Files.isDirectory(dir)) {
            throw new IOException("minhash_buckets: no signature folder " + dir + " (run minhash_signature first,"
                    + " with the same num_buckets)");
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".minhash.sig")).sorted().toList();
        }
    }

    /**
     * The index files of one bucket in {@code index_folder}, without those this step writes itself
     * ({@code create_index_name}), which a rerun would otherwise read as another corpus's.
     */
    private List<Path> indexFiles(int bucket) throws IOException {
        if (indexFolder == null) {
            return List.of();
        }
        if (!Files.isDirectory(indexFolder)) {
            if (createIndexName != null) {
                return List.of(); // the first corpus of a growing index
            }
            throw new IOException("minhash_buckets: index_folder " + indexFolder + " does not exist");
        }
        Path dir = indexFolder.resolve(MinhashSignatureStep.bucketDir(bucket));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        java.util.function.Predicate<String> own = ownIndexFile();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> {
                String name = p.getFileName().toString();
                return name.endsWith(MinhashBuildIndexStep.INDEX_SUFFIX) && !own.test(name);
            }).sorted().toList();
        }
    }

    /** Whether an index file's name is one this step writes ({@code create_index_name}). */
    public java.util.function.Predicate<String> ownIndexFile() {
        if (createIndexName == null) {
            return name -> false;
        }
        return java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(createIndexName) + "_\\d{2}"
                + java.util.regex.Pattern.quote(MinhashBuildIndexStep.INDEX_SUFFIX)).asMatchPredicate();
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
                    // datatrove splits a bucket's hash range by the first signature file alone, and asserts the same
                    throw new IOException(files.get(0) + ": the bucket's hash range is split among its " + workersPerBucket
                            + " workers by its first signature file, which holds " + lines + " signature(s) (rank 0's"
                            + " share of the documents, short texts having none); use fewer minhash_buckets tasks");
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

    /**
     * Merges the bucket's files in datatrove's order and writes a pair for each document whose bucket hashes
     * equal those of the record before it: with the index when the run of equal records began with an index
     * record, else with the document before (unless {@code only_dedup_in_index} and there is an index).
     * Records that start a new run and are from this corpus go to {@code newIndex} when there is one.
     */
    private void mergeAndWritePairs(List<SigFileReader> readers, boolean hasIndex, Path target, Path newIndex)
            throws IOException {
        int per = config.hashesPerBucket();
        SigMerge merge = new SigMerge(readers, per);
        long[] last = new long[per];
        boolean hasLast = false;
        boolean runMatchesIndex = false;
        boolean lastFromIndex = false;
        int lastRank = 0;
        long lastDoc = 0;
        long pairs = 0;
        long indexMatches = 0;
        ByteBuffer out = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        try (AtomicFile f = AtomicFile.create(target);
             IndexFileWriter index = newIndex == null ? null : new IndexFileWriter(newIndex, config)) {
            for (SigFileReader r; (r = merge.next()) != null; ) {
                boolean sameRun = hasLast && Arrays.equals(last, 0, per, r.row, 0, per);
                if (!sameRun) {
                    runMatchesIndex = r.fileIndex < 0;
                }
                if (r.fileIndex >= 0) {
                    // datatrove pairs a document with the index only right after the index record; the
                    // documents after it it pairs with the one before, or not at all with only_dedup_in_index
                    boolean withIndex = sameRun && (lastFromIndex || runMatchesIndex && onlyDedupInIndex);
                    if (withIndex || sameRun && (!hasIndex || !onlyDedupInIndex)) {
                        if (out.remaining() < 16) {
                            f.write(out.array(), 0, out.position());
                            out.clear();
                        }
                        out.putInt(withIndex ? SENTINEL : lastRank).putInt(withIndex ? SENTINEL : (int) lastDoc)
                                .putInt(r.fileRank).putInt((int) r.row[per]);
                        pairs++;
                        indexMatches += withIndex ? 1 : 0;
                    } else if (!sameRun && index != null) {
                        index.add(r.row);
                    }
                    lastRank = r.fileRank;
                    lastDoc = r.row[per];
                }
                lastFromIndex = r.fileIndex < 0;
                System.arraycopy(r.row, 0, last, 0, per);
                hasLast = true;
            }
            f.write(out.array(), 0, out.position());
            f.commit();
            if (index != null) {
                index.commit();
            }
        }
        ctx.stats().add("total_matches", pairs);
        if (hasIndex) {
            ctx.stats().add("index_match", indexMatches);
        }
    }
}
