package io.sluice.dedup;

import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code minhash_build_index} (datatrove's {@code MinhashBuildIndex}): turns a corpus's signatures into
 * an index that other corpora are deduplicated against ({@code minhash_buckets}' {@code index_folder}).
 * Rank b merges the signature files of bucket b and writes each distinct bucket signature once, sorted,
 * without document numbers, to {@code <output>/bucket_XXX/<index_name>.minhash.index}: datatrove's
 * file name and bytes.
 *
 * <p>Keys: {@code input} (the signature folder of {@code minhash_signature}), {@code output} (the index
 * folder), {@code index_name} (required), the {@link MinhashConfig} keys, {@code memory_limit} (read
 * buffers, default 256M). The stage has no reader and exactly {@code num_buckets} tasks.
 */
public final class MinhashBuildIndexStep extends FileStageStep implements io.sluice.pipeline.ListedOutput.Reader {
    static final String INDEX_SUFFIX = ".minhash.index";
    private final Path input;
    private final Path output;
    private final String indexName;
    private final MinhashConfig config;
    private final long memoryLimit;

    public MinhashBuildIndexStep(StepArgs args) {
        super("minhash_build_index");
        this.input = args.path("input");
        this.output = args.path("output");
        this.indexName = args.requireString("index_name");
        String problem = indexNameProblem(indexName);
        if (problem != null) {
            throw args.error("index_name", problem);
        }
        this.config = MinhashConfig.fromArgs(args);
        this.memoryLimit = MinhashConfig.memoryLimit(args, 256L << 20);
    }

    /** Why {@code name} cannot name index files, or null. */
    static String indexNameProblem(String name) {
        if (name.isBlank() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            return "'" + name + "' must be a file name: not blank, no '/' or '\\', not starting with '.'";
        }
        return null;
    }

    /** The parameters it reads the signatures with (for the job's checks). */
    public MinhashConfig config() {
        return config;
    }

    private static final java.util.regex.Pattern BUCKET_DIR = java.util.regex.Pattern.compile("bucket_(\\d{3,})");

    /**
     * The index files ({@code bucket_XXX/*.minhash.index}) in {@code folder} whose names {@code which} accepts,
     * bucket folder by bucket folder, sorted; none when it is no folder.
     */
    static List<Path> indexFiles(Path folder, java.util.function.Predicate<String> which) throws IOException {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return found;
        }
        try (java.util.stream.Stream<Path> buckets = Files.list(folder)) {
            for (Path dir : (Iterable<Path>) buckets.sorted()::iterator) {
                if (!BUCKET_DIR.matcher(dir.getFileName().toString()).matches() || !Files.isDirectory(dir)) {
                    continue;
                }
                try (java.util.stream.Stream<Path> in = Files.list(dir)) {
                    in.filter(f -> {
                        String name = f.getFileName().toString();
                        return name.endsWith(INDEX_SUFFIX) && which.test(name);
                    }).sorted().forEach(found::add);
                }
            }
        }
        return found;
    }

    /**
     * Why the index files in {@code folder} (made by another job, or by datatrove) cannot be what a step with
     * {@code config} reads, or null: none at all (then every document matches nothing, silently), a bucket
     * folder past its buckets, or a file whose size is not a whole number of its records. (Keys the files cannot
     * show, such as n_grams or seed, are compared by {@link MinhashKeysFile}.) {@code mayBeEmpty}: a step adding to the
     * index (create_index_name) may start it.
     */
    public static String indexProblem(Path folder, MinhashConfig config, boolean mayBeEmpty) throws IOException {
        int recordBytes = config.hashesPerBucket() * config.hashBytes();
        List<Path> files = indexFiles(folder, name -> true);
        for (Path f : files) {
            java.util.regex.Matcher bucket = BUCKET_DIR.matcher(f.getParent().getFileName().toString());
            if (bucket.matches() && Integer.parseInt(bucket.group(1)) >= config.numBuckets()) {
                return "holds " + folder.relativize(f) + ", past the " + config.numBuckets() + " buckets of this"
                        + " step: the index was made with more buckets; give the step the MinHash keys it was made with";
            }
            long size = Files.size(f);
            if (size % recordBytes != 0) {
                return "holds " + folder.relativize(f) + " of " + size + " bytes, not a whole number of this step's"
                        + " index records (" + config.hashesPerBucket() + " hashes of " + config.hashBytes() + " bytes):"
                        + " the index was made with other hashes_per_bucket or precision";
            }
        }
        return !files.isEmpty() || mayBeEmpty ? null : "holds no index files (bucket_NNN/<name>" + INDEX_SUFFIX + "): every"
                + " document would match nothing in it";
    }

    /** The index file {@code name} of one bucket, as datatrove names it. */
    static Path indexFile(Path folder, int bucket, String name) {
        return folder.resolve(MinhashSignatureStep.bucketDir(bucket)).resolve(name + INDEX_SUFFIX);
    }

    @Override
    public String stageProblem(int tasks, boolean documents) {
        if (documents) {
            return "reads signature files, not documents: put no reader before it";
        }
        return tasks == config.numBuckets() ? null
                : "runs one task per bucket: the number of tasks (" + tasks + ") must equal num_buckets ("
                + config.numBuckets() + ")";
    }

    /** The input folder (for the job's checks). */
    public Path input() {
        return input;
    }

    /** Whether an index file's name is the one this step writes. */
    public java.util.function.Predicate<String> ownIndexFile() {
        return name -> name.equals(indexName + INDEX_SUFFIX);
    }

    /** The index folder it writes (for the job's checks). */
    public Path output() {
        return output;
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        int bucket = ctx.rank();
        List<Path> files = MinhashBucketsStep.sigFiles(input, bucket);
        String unrecorded = MinhashKeysFile.recordIndexKeys(output, input, ownIndexFile());
        if (unrecorded != null) {
            ctx.log().info("minhash_build_index: " + unrecorded);
        }
        int bufferBytes = config.mergeBufferBytes(memoryLimit, files.size());
        List<SigFileReader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < files.size(); i++) {
                // every record: datatrove's index reads up to 2^61-1 even at precision 32, so a first hash of
                // 0xFFFFFFFF is indexed (its bucket stage, which stops at 0xFFFFFFFF, pairs no such record)
                readers.add(new SigFileReader(files.get(i), i, config, bufferBytes, 0, Long.MAX_VALUE));
            }
            Path target = indexFile(output, bucket, indexName);
            ctx.files().willWrite(target);
            long written = writeDistinct(readers, target);
            ctx.stats().add("index_records", written);
            ctx.log().info(String.format("minhash_build_index: bucket %03d, %d files, %d distinct signatures in %s",
                    bucket, files.size(), written, target));
        } finally {
            for (SigFileReader r : readers) {
                r.close();
            }
        }
    }

    private long writeDistinct(List<SigFileReader> readers, Path target) throws IOException {
        int per = config.hashesPerBucket();
        SigMerge merge = new SigMerge(readers, per);
        long[] last = new long[per];
        boolean hasLast = false;
        long written = 0;
        try (IndexFileWriter index = new IndexFileWriter(target, config)) {
            for (SigFileReader r; (r = merge.next()) != null; ) {
                if (!hasLast || !Arrays.equals(last, 0, per, r.row, 0, per)) {
                    index.add(r.row);
                    System.arraycopy(r.row, 0, last, 0, per);
                    hasLast = true;
                    written++;
                }
            }
            index.commit();
        }
        return written;
    }
}
