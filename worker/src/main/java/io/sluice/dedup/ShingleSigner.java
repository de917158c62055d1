package io.sluice.dedup;

import io.sluice.simd.Kernels;
import io.sluice.simd.MinhashKernel;
import io.sluice.text.EnglishText;
import io.sluice.text.SimplifiedChunks;
import io.sluice.text.TextNormConfig;
import io.sluice.text.TextNormalizer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Computes a document's MinHash signature as datatrove's stage 1 does: simplify the text, split it
 * into English words, hash every n-gram of words joined by single spaces (UTF-8; duplicates kept, as
 * datatrove keeps them), and take per permutation the minimum of the permuted hashes. A text with
 * fewer words than {@code n_grams} has no shingles and no signature. One instance per thread:
 * buffers are reused.
 */
public final class ShingleSigner {
    private final MinhashConfig config;
    private final MinhashParameters params;
    private final MinhashKernel kernel;
    private final MessageDigest sha1;
    private static final int LENGTH_CLASSES = 128;
    private long[] hashes = new long[1 << 12];
    private int[] order = new int[1 << 12];
    private final int[] lengthCounts = new int[LENGTH_CLASSES + 1];
    private final JoinedWords joined = new JoinedWords();
    private final SimplifiedChunks chunks = new SimplifiedChunks();
    private final SimplifiedWords words = new SimplifiedWords(joined);

    public ShingleSigner(MinhashConfig config) {
        this(config, Kernels.minhash());
    }

    public ShingleSigner(MinhashConfig config, MinhashKernel kernel) {
        this.config = config;
        this.params = MinhashParameters.of(config.seed(), config.numHashes());
        this.kernel = kernel;
        try {
            this.sha1 = config.hashFc().equals("sha1") ? MessageDigest.getInstance("SHA-1") : null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public MinhashConfig config() {
        return config;
    }

    /**
     * Writes the {@code num_buckets * hashes_per_bucket} signature values into {@code out} and returns
     * true, or returns false when the text has fewer than {@code n_grams} words.
     */
    public boolean sign(String text, long[] out) {
        int n = shingleHashes(text);
        if (n == 0) {
            return false;
        }
        kernel.minHash(hashes, n, params.a(), params.b(), out, config.valueMask());
        return true;
    }

    /** The shingle hashes of {@code text} (for tests and tools); empty when it has too few words. */
    public long[] shingles(String text) {
        return Arrays.copyOf(hashes, shingleHashes(text));
    }

    /** Fills {@link #hashes} and returns how many shingles the text has. */
    private int shingleHashes(String text) {
        TextNormConfig norm = config.normConfig();
        joined.clear();
        if (!SimplifiedChunks.applies(norm) || !chunks.split(text, norm, words)) {
            joined.clear(); // what split sent before it declined
            String simplified = TextNormalizer.simplifyStepByStep(text, norm);
            if (norm.normWhitespace()) {
                words.join(simplified);
            } else {
                for (String w : EnglishText.words(simplified)) {
                    joined.add(w);
                }
            }
        }
        int nGrams = config.nGrams();
        int count = joined.count() - nGrams + 1;
        if (count <= 0) {
            return 0;
        }
        if (hashes.length < count) {
            hashes = new long[Math.max(count, hashes.length * 2)];
        }
        // Shingle i spans from the start of word i to the end of word i+n-1 (the space before word i+n).
        // They are hashed shortest first: XXH64's loops run a number of times set by the length, and
        // hashing in text order, where lengths vary from one shingle to the next, cost about twice as
        // much in mispredicted branches as hashing equal lengths one after another.
        int[] order = byLength(count, nGrams);
        byte[] bytes = joined.bytes();
        for (int k = 0; k < count; k++) {
            int i = order[k];
            int from = joined.start(i);
            hashes[i] = hash(bytes, from, joined.start(i + nGrams) - 1 - from);
        }
        return count;
    }

    /** Shingle indices 0..count-1 sorted by length (a counting sort; equal lengths in text order). */
    private int[] byLength(int count, int nGrams) {
        if (order.length < count) {
            order = new int[Math.max(count, order.length * 2)];
        }
        int[] counts = lengthCounts;
        Arrays.fill(counts, 0);
        for (int i = 0; i < count; i++) {
            counts[lengthClass(i, nGrams) + 1]++;
        }
        for (int c = 1; c < counts.length; c++) {
            counts[c] += counts[c - 1];
        }
        for (int i = 0; i < count; i++) {
            order[counts[lengthClass(i, nGrams)]++] = i;
        }
        return order;
    }

    /** The shingle's byte length, long ones (whose hashing loops differ anyway) sharing the last class. */
    private int lengthClass(int i, int nGrams) {
        return Math.min(joined.start(i + nGrams) - 1 - joined.start(i), LENGTH_CLASSES - 1);
    }

    private long hash(byte[] joined, int off, int len) {
        boolean wide = config.precision() == 64;
        if (sha1 == null) {
            return wide ? XxHash.xxh64(joined, off, len) : Integer.toUnsignedLong(XxHash.xxh32(joined, off, len));
        }
        sha1.update(joined, off, len);
        byte[] d = sha1.digest();
        long v = 0;
        for (int k = (wide ? 8 : 4) - 1; k >= 0; k--) {
            v = (v << 8) | (d[k] & 0xFF);
        }
        return v;
    }
}
