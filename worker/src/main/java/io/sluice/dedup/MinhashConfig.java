package io.sluice.dedup;

import io.sluice.job.StepArgs;
import io.sluice.text.TextNormConfig;

/**
 * MinHash parameters shared by the signature, buckets and cluster stages (and minhash_build_index); datatrove's {@code MinhashConfig} with its
 * {@code HashConfig}. All stages of one dedup must use the same values. Defaults equal datatrove's:
 * 5-word shingles, 14 buckets of 8 hashes, seed 1, 64-bit xxhash, default text normalisation.
 *
 * <p>Job-file keys (on every MinHash step but minhash_filter, which needs none): {@code n_grams}, {@code num_buckets},
 * {@code hashes_per_bucket}, {@code seed}, {@code precision} (64 or 32), {@code hash_fc}
 * ({@code xxhash} or {@code sha1}).
 */
public record MinhashConfig(int nGrams, int numBuckets, int hashesPerBucket, long seed, int precision,
                            String hashFc, TextNormConfig normConfig) {
    public static final MinhashConfig DEFAULT = new MinhashConfig(5, 14, 8, 1, 64, "xxhash", TextNormConfig.DEFAULT);

    public MinhashConfig {
        if (nGrams < 1 || numBuckets < 1 || hashesPerBucket < 1) {
            throw new IllegalArgumentException("n_grams, num_buckets and hashes_per_bucket must be positive");
        }
        if (precision != 32 && precision != 64) {
            throw new IllegalArgumentException("precision must be 32 or 64, got " + precision);
        }
        if (!hashFc.equals("xxhash") && !hashFc.equals("sha1")) {
            throw new IllegalArgumentException("hash_fc must be xxhash or sha1, got " + hashFc);
        }
    }

    /** What the signature and bucket files' layout depends on: steps reading them need the same. */
    public String layout() {
        return "num_buckets " + numBuckets + ", hashes_per_bucket " + hashesPerBucket + ", precision " + precision;
    }

    /** What a document's bucket hashes depend on: two corpora's match only when made with the same. */
    public String hashing() {
        return "n_grams " + nGrams + ", seed " + seed + ", hash_fc " + hashFc + ", " + layout();
    }

    /** Reads the config keys of a MinHash step; absent keys take datatrove's defaults. */
    public static MinhashConfig fromArgs(StepArgs args) {
        int nGrams = positive(args, "n_grams", DEFAULT.nGrams);
        int numBuckets = positive(args, "num_buckets", DEFAULT.numBuckets);
        int perBucket = positive(args, "hashes_per_bucket", DEFAULT.hashesPerBucket);
        long seed = args.integer("seed", DEFAULT.seed);
        if (seed < 0 || seed > 0xFFFFFFFFL) {
            throw args.error("seed", "must be between 0 and 2^32-1, got " + seed);
        }
        long precision = args.integer("precision", DEFAULT.precision);
        if (precision != 32 && precision != 64) {
            throw args.error("precision", "must be 32 or 64, got " + precision);
        }
        String hashFc = args.choice("hash_fc", DEFAULT.hashFc, "xxhash", "sha1");
        return new MinhashConfig(nGrams, numBuckets, perBucket, seed, (int) precision, hashFc, TextNormConfig.DEFAULT);
    }

    private static int positive(StepArgs args, String key, int dflt) {
        long v = args.integer(key, dflt);
        if (v < 1 || v > 100_000) {
            throw args.error(key, "must be a positive integer, got " + v);
        }
        return (int) v;
    }

    public int numHashes() {
        return numBuckets * hashesPerBucket;
    }

    /** Bytes of one hash in the signature files: 8 or 4. */
    public int hashBytes() {
        return precision / 8;
    }

    /** Bytes of one signature-file record: the bucket's hashes, then the uint32 document index. */
    public int sigRecordBytes() {
        return hashesPerBucket * hashBytes() + 4;
    }

    /**
     * The exclusive upper end of stage 2's last hash range, as datatrove sets it: 2^61-1 (above every
     * 64-bit value) or {@code HashConfig.max} = 2^32-1 at precision 32, where a record whose first hash
     * is exactly 2^32-1 therefore takes part in no pair. Kept for identical .dups files.
     */
    public long hashRangeEnd() {
        return precision == 64 ? MinhashParameters.MERSENNE_61 : 0xFFFFFFFFL;
    }

    /** Signature values are masked to this before the minimum (datatrove masks 32-bit ones). */
    public long valueMask() {
        return precision == 64 ? -1L : 0xFFFFFFFFL;
    }

    /** A step's {@code memory_limit} key (bytes, "512M" and the like), at least a megabyte. */
    static long memoryLimit(io.sluice.job.StepArgs args, long dflt) {
        long limit = args.size("memory_limit", dflt);
        if (limit < (1 << 20)) {
            throw args.error("memory_limit", "must be at least 1M, got " + limit);
        }
        return limit;
    }

    /** The read buffer of each of {@code files} merge readers sharing {@code memoryLimit}: 16 records to 1 MB. */
    int mergeBufferBytes(long memoryLimit, int files) {
        return (int) Math.min(1 << 20, Math.max(sigRecordBytes() * 16L, memoryLimit / Math.max(1, files)));
    }
}
