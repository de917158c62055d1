package io.sluice.dedup;

import io.sluice.io.AtomicFile;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * {@code minhash_cluster}, MinHash stage 3 (datatrove's {@code MinhashDedupCluster}): joins all
 * duplicate pairs of stage 2 into clusters and writes, per signature rank that has any, the
 * documents to remove: {@code <output>/<rank:06d>.remove} (uint32 document indices, ascending),
 * and with {@code cluster_metadata: true} also {@code <rank:06d>.clusters} and
 * {@code <rank:06d>.sizes} (uint32 pairs: document index, cluster id / cluster size). These are
 * datatrove's file names (six digits) and formats, so either tool can read the other's.
 *
 * <p>Cluster ids count 0.. in the order of each cluster's first document (by rank, then index).
 * {@code keep} chooses the survivor of each cluster: {@code datatrove} (default) keeps datatrove's
 * union-find root (union by size, ties to the first document of a pair, pairs in .dups file order);
 * {@code first} keeps the cluster's first document in input order; {@code longest} keeps the
 * document with the longest text (the first of them on a tie), read from the lengths files that
 * {@code minhash_signature} writes, so it needs {@code signatures} (stage 1's folder).
 *
 * <p>Runs as a single task (world size 1) but uses {@code threads} threads (default: all cores)
 * to read and index the pairs; the unions themselves are applied in file order, which is what makes
 * the survivors deterministic. Memory: about 40 bytes per pair, in flat int/long arrays.
 *
 * <p>A pair that names the index ({@code 0xFFFFFFFF, 0xFFFFFFFF}, see {@link MinhashBucketsStep}) joins its
 * document to the index's cluster, whose survivor is the indexed document, outside this corpus: every
 * document of that cluster is removed. (datatrove's union-find can make a document of this corpus the
 * root of such a cluster, keep it, and write a remove file for rank 4294967295.) An index record names
 * no document, so all documents that match the index make one cluster, whose size counts them. {@code ignore_index_matches: true} skips those pairs, as datatrove's key does.
 *
 * <p>Keys: {@code input} (the .dups folder), {@code output}, {@code keep}, {@code signatures}, {@code cluster_metadata},
 * {@code threads}, {@code ignore_index_matches}, and the {@link MinhashConfig} keys ({@code num_buckets} is
 * checked against the number of .dups files).
 */
public final class MinhashClusterStep extends FileStageStep implements io.sluice.pipeline.ListedOutput,
        io.sluice.pipeline.ListedOutput.Reader {
    private final Path input;
    private final Path output;
    private final MinhashConfig config;
    /** Which document of a cluster survives. */
    public enum Keep { DATATROVE, FIRST, LONGEST }

    private final Keep keep;
    private final Path signatures;
    private final boolean clusterMetadata;
    private final int threads;
    private final boolean ignoreIndexMatches;

    public MinhashClusterStep(StepArgs args) {
        super("minhash_cluster");
        this.input = args.path("input");
        this.output = args.path("output");
        this.config = MinhashConfig.fromArgs(args);
        this.keep = Keep.valueOf(args.choice("keep", "datatrove", "datatrove", "first", "longest").toUpperCase());
        this.signatures = args.optionalPath("signatures", null);
        if (keep == Keep.LONGEST && signatures == null) {
            throw args.error("signatures", "is required with keep: longest (the minhash_signature output folder,"
                    + " which holds the text lengths)");
        }
        this.clusterMetadata = args.bool("cluster_metadata", false);
        long t = args.integer("threads", Runtime.getRuntime().availableProcessors());
        if (t < 1 || t > 1024) {
            throw args.error("threads", "must be between 1 and 1024, got " + t);
        }
        this.threads = (int) t;
        this.ignoreIndexMatches = args.bool("ignore_index_matches", false);
    }

    /** @param signatures stage 1's folder; needed only for {@link Keep#LONGEST} */
    public MinhashClusterStep(Path input, Path output, MinhashConfig config, Keep keep, Path signatures,
                              boolean clusterMetadata, int threads) {
        super("minhash_cluster");
        this.input = input;
        this.output = output;
        this.config = config;
        this.keep = keep;
        this.signatures = signatures;
        this.clusterMetadata = clusterMetadata;
        this.threads = threads;
        this.ignoreIndexMatches = false;
    }

    public static Path removeFile(Path folder, int rank) {
        return folder.resolve(String.format("%06d.remove", rank));
    }

    public static Path clustersFile(Path folder, int rank) {
        return folder.resolve(String.format("%06d.clusters", rank));
    }

    public static Path sizesFile(Path folder, int rank) {
        return folder.resolve(String.format("%06d.sizes", rank));
    }

    @Override
    public String stageProblem(int tasks, boolean documents) {
        if (documents) {
            return "reads the bucket stage's pairs files, not documents: put no reader before it";
        }
        return tasks == 1 ? null : "runs as exactly one task (it parallelises inside), got " + tasks;
    }

    /** The input folder (for the job's checks). */
    public Path input() {
        return input;
    }

    @Override
    public Path listedFolder() {
        return output;
    }

    /** minhash_filter takes the .remove (and .clusters, .sizes) file of its rank, written or not by this run. */
    @Override
    public boolean isListed(String relative) {
        return relative.endsWith(".remove") || relative.endsWith(".clusters") || relative.endsWith(".sizes");
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
    public void finish(DocumentSink next) throws IOException {
        List<Path> files = dupsFiles();
        int[][] pairs = readAll(files);
        long[] nodes = distinctNodes(pairs);
        int[][] ids = toNodeIds(pairs, nodes);
        UnionFind uf = new UnionFind(nodes.length);
        for (int[] fileIds : ids) {
            for (int k = 0; k < fileIds.length; k += 2) {
                uf.union(fileIds[k], fileIds[k + 1]);
            }
        }
        writeOutputs(nodes, uf);
    }

    private List<Path> dupsFiles() throws IOException {
        if (!Files.isDirectory(input)) {
            throw new IOException("minhash_cluster: no .dups folder " + input + " (run minhash_buckets first)");
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(input)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".dups")).sorted().toList();
        }
        if (files.isEmpty()) {
            // minhash_buckets writes one per rank, empty or not: none means it has not run (before: nothing removed, exit 0)
            throw new IOException("minhash_cluster: no .dups files in " + input + "; did minhash_buckets run and finish?");
        }
        if (files.size() % config.numBuckets() != 0) {
            throw new IOException("minhash_cluster: " + files.size() + " .dups files in " + input
                    + " is not a multiple of num_buckets (" + config.numBuckets() + "); did minhash_buckets finish?");
        }
        return files;
    }

    /** Each file's pairs as (rank1, doc1, rank2, doc2) ints, read in parallel. */
    private int[][] readAll(List<Path> files) throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, files.size())));
        try {
            List<Future<int[]>> parts = new ArrayList<>();
            for (Path f : files) {
                parts.add(pool.submit(() -> ignoreIndexMatches ? withoutIndexPairs(readPairs(f)) : readPairs(f)));
            }
            int[][] out = new int[files.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = get(parts.get(i));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T get(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static int[] readPairs(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length % 16 != 0) {
            throw new IOException(file + ": truncated or corrupt .dups file: " + bytes.length
                    + " bytes is not a multiple of 16 (four uint32 per pair)");
        }
        IntBuffer ib = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] out = new int[ib.remaining()];
        ib.get(out);
        return out;
    }

    /** The pairs that do not name the index. */
    private static int[] withoutIndexPairs(int[] pairs) {
        int n = 0;
        for (int k = 0; k < pairs.length; k += 4) {
            if (pairs[k] != MinhashBucketsStep.SENTINEL || pairs[k + 1] != MinhashBucketsStep.SENTINEL) {
                System.arraycopy(pairs, k, pairs, n, 4);
                n += 4;
            }
        }
        return Arrays.copyOf(pairs, n);
    }

    /** The index's node: rank and document 0xFFFFFFFF, which as a signed long sorts before every document. */
    private static final long INDEX_NODE = -1L;

    private static long key(int rank, int doc) {
        return (Integer.toUnsignedLong(rank) << 32) | Integer.toUnsignedLong(doc);
    }

    /** Every document named in a pair, as rank<<32|doc, sorted and distinct: index = node id. */
    private static long[] distinctNodes(int[][] pairs) {
        long total = 0;
        for (int[] p : pairs) {
            total += p.length / 2;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("minhash_cluster: more than 2^31 pair ends; not supported yet");
        }
        long[] keys = new long[(int) total];
        int n = 0;
        for (int[] p : pairs) {
            for (int k = 0; k < p.length; k += 2) {
                keys[n++] = key(p[k], p[k + 1]);
            }
        }
        Arrays.parallelSort(keys);
        int distinct = 0;
        for (int i = 0; i < keys.length; i++) {
            if (i == 0 || keys[i] != keys[i - 1]) {
                keys[distinct++] = keys[i];
            }
        }
        return Arrays.copyOf(keys, distinct);
    }

    /** The pairs as node ids (two per pair), one array per file, mapped in parallel. */
    private static int[][] toNodeIds(int[][] pairs, long[] nodes) {
        int[][] ids = new int[pairs.length][];
        java.util.stream.IntStream.range(0, pairs.length).parallel().forEach(f -> {
            int[] p = pairs[f];
            int[] out = new int[p.length / 2];
            for (int k = 0; k < out.length; k++) {
                out[k] = Arrays.binarySearch(nodes, key(p[2 * k], p[2 * k + 1]));
            }
            ids[f] = out;
        });
        return ids;
    }

    private void writeOutputs(long[] nodes, UnionFind uf) throws IOException {
        // made even with no duplicates to remove, so that minhash_filter can tell that this step ran
        Files.createDirectories(output);
        int n = nodes.length;
        int[] root = new int[n];
        for (int i = 0; i < n; i++) {
            root[i] = uf.find(i);
        }
        // the index's node, if a pair names it, is node 0; the documents are the others
        int first = n > 0 && nodes[0] == INDEX_NODE ? 1 : 0;
        // cluster ids in order of first member; with keep=first the first member survives
        int[] clusterOfRoot = new int[n];
        int[] survivorOfRoot = new int[n];
        Arrays.fill(clusterOfRoot, -1);
        int[] length = keep == Keep.LONGEST ? nodeLengths(nodes, first) : null;
        int clusters = 0;
        for (int i = first; i < n; i++) {
            int r = root[i];
            if (clusterOfRoot[r] < 0) {
                clusterOfRoot[r] = clusters++;
                survivorOfRoot[r] = keep == Keep.DATATROVE ? r : i;
            } else if (length != null && Integer.compareUnsigned(length[i], length[survivorOfRoot[r]]) > 0) {
                survivorOfRoot[r] = i; // longer text; on equal length the earlier document stays
            }
        }
        int indexRoot = first == 1 ? root[0] : -1;
        if (indexRoot >= 0) {
            survivorOfRoot[indexRoot] = 0; // the indexed document survives, outside this corpus
        }
        long removed = 0;
        long removedByIndex = 0;
        int start = first;
        while (start < n) {
            int rank = (int) (nodes[start] >>> 32);
            int end = start;
            while (end < n && (int) (nodes[end] >>> 32) == rank) {
                end++;
            }
            IntList remove = new IntList();
            IntList clusterRecs = new IntList();
            IntList sizeRecs = new IntList();
            for (int i = start; i < end; i++) {
                int doc = (int) nodes[i];
                int r = root[i];
                if (survivorOfRoot[r] != i) {
                    remove.add(doc);
                    removedByIndex += r == indexRoot ? 1 : 0;
                }
                clusterRecs.add(doc);
                clusterRecs.add(clusterOfRoot[r]);
                sizeRecs.add(doc);
                sizeRecs.add(uf.sizeOfRoot(r) - (r == indexRoot ? 1 : 0));
            }
            removed += remove.size();
            if (remove.size() > 0) {
                writeInts(removeFile(output, rank), remove, ctx);
            }
            if (clusterMetadata) {
                writeInts(clustersFile(output, rank), clusterRecs, ctx);
                writeInts(sizesFile(output, rank), sizeRecs, ctx);
            }
            start = end;
        }
        ctx.stats().add("duplicates", n - first);
        ctx.stats().add("to_remove", removed);
        ctx.stats().add("clusters", clusters);
        if (first == 1) {
            ctx.stats().add("removed_by_index", removedByIndex);
        }
        ctx.log().info("minhash_cluster: " + (n - first) + " documents in " + clusters + " clusters, " + removed
                + " to remove" + (first == 1 ? " (" + removedByIndex + " of them as duplicates of the index)" : ""));
    }

    /** The text length of every node from {@code first} on, from stage 1's per-rank lengths files. */
    private int[] nodeLengths(long[] nodes, int first) throws IOException {
        int[] out = new int[nodes.length];
        int start = first;
        while (start < nodes.length) {
            int rank = (int) (nodes[start] >>> 32);
            Path file = MinhashSignatureStep.lengthsFile(signatures, rank);
            if (!Files.isRegularFile(file)) {
                throw new IOException("minhash_cluster: keep: longest needs " + file + " (written by minhash_signature)");
            }
            int[] lengths = readPairs4(file);
            for (; start < nodes.length && (int) (nodes[start] >>> 32) == rank; start++) {
                long doc = nodes[start] & 0xFFFFFFFFL;
                if (doc >= lengths.length) {
                    throw new IOException(file + ": has " + lengths.length + " documents but a .dups file names"
                            + " document " + doc + "; are the signature and .dups folders from the same run?");
                }
                out[start] = lengths[(int) doc];
            }
        }
        return out;
    }

    private static int[] readPairs4(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length % 4 != 0) {
            throw new IOException(file + ": truncated or corrupt lengths file: " + bytes.length
                    + " bytes is not a multiple of 4");
        }
        IntBuffer ib = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] out = new int[ib.remaining()];
        ib.get(out);
        return out;
    }

    private static void writeInts(Path target, IntList values, StepContext ctx) throws IOException {
        ctx.files().willWrite(target);
        ByteBuffer bb = ByteBuffer.allocate(values.size() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < values.size(); i++) {
            bb.putInt(values.get(i));
        }
        AtomicFile.write(target, bb.array());
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] a = new int[16];
        private int n;

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        int get(int i) {
            return a[i];
        }

        int size() {
            return n;
        }
    }
}
