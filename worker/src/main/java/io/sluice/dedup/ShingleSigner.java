package io.sluice.dedup;

import io.sluice.simd.Kernels;
import io.sluice.simd.MinhashKernel;
import io.sluice.text.EnglishText;
import io.sluice.text.TextNormalizer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
    private byte[] joined = new byte[1 << 16];
    private int[] starts = new int[1 << 12];
    private long[] hashes = new long[1 << 12];
    private final SimplifiedWords chunkWords = new SimplifiedWords();
    private final List<String> words = new ArrayList<>();

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
        String simplified = TextNormalizer.simplify(text, config.normConfig());
        List<String> words;
        if (config.normConfig().normWhitespace()) {
            words = this.words;
            words.clear();
            chunkWords.words(simplified, words);
        } else {
            words = EnglishText.words(simplified);
        }
        int nGrams = config.nGrams();
        int count = words.size() - nGrams + 1;
        if (count <= 0) {
            return 0;
        }
        joinWords(words);
        if (hashes.length < count) {
            hashes = new long[Math.max(count, hashes.length * 2)];
        }
        // shingle i spans from the start of word i to the end of word i+n-1 (the space before word i+n)
        for (int i = 0; i < count; i++) {
            int from = starts[i];
            int to = starts[i + nGrams] - 1;
            hashes[i] = hash(from, to - from);
        }
        return count;
    }

    /** UTF-8 of the words joined by single spaces; starts[k] = offset of word k, starts[size] = end + 1. */
    private void joinWords(List<String> words) {
        int size = words.size();
        if (starts.length < size + 1) {
            starts = new int[Math.max(size + 1, starts.length * 2)];
        }
        int pos = 0;
        for (int k = 0; k < size; k++) {
            String w = words.get(k);
            ensureJoined(pos + w.length() * 3 + 1);
            starts[k] = pos;
            pos = encodeUtf8(w, joined, pos);
            joined[pos++] = ' ';
        }
        starts[size] = pos;
    }

    private void ensureJoined(int need) {
        if (joined.length < need) {
            joined = Arrays.copyOf(joined, Math.max(need, joined.length * 2));
        }
    }

    /** UTF-8 like Python's {@code str.encode}; an unpaired surrogate (which Python rejects) becomes '?'. */
    private static int encodeUtf8(String s, byte[] dst, int pos) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[pos++] = (byte) c;
            } else if (c < 0x800) {
                dst[pos++] = (byte) (0xC0 | (c >> 6));
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[pos++] = (byte) (0xF0 | (cp >> 18));
                dst[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[pos++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                dst[pos++] = '?';
            } else {
                dst[pos++] = (byte) (0xE0 | (c >> 12));
                dst[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return pos;
    }

    private long hash(int off, int len) {
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
