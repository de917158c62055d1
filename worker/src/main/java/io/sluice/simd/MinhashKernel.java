package io.sluice.simd;

/**
 * The MinHash inner loop: for each permutation {@code j}, the minimum over the shingle hashes
 * {@code h} of {@code ((a[j]*h + b[j]) mod 2^64) mod (2^61-1)}, masked. The product and sum wrap
 * modulo 2^64 before the Mersenne modulo, exactly as datatrove's numpy uint64 arithmetic does.
 * Every result is below 2^61, so signed comparisons order them correctly.
 *
 * <p>Implementations must give identical results; pick one with {@link Kernels#minhash()}.
 */
public interface MinhashKernel {
    /** The Mersenne prime 2^61-1. */
    long MERSENNE_61 = (1L << 61) - 1;

    /**
     * @param hashes shingle hashes (unsigned 64-bit), the first {@code n} are used; {@code n >= 1}
     * @param a      permutation multipliers, one per permutation
     * @param b      permutation offsets, same length as {@code a}
     * @param out    receives {@code a.length} minima
     * @param mask   applied to each permuted value before the minimum: {@code 0xFFFFFFFFL} for 32-bit
     *               signatures (datatrove masks before taking the minimum), {@code -1L} for 64-bit
     */
    void minHash(long[] hashes, int n, long[] a, long[] b, long[] out, long mask);

    /** 64-bit signatures. */
    default void minHash(long[] hashes, int n, long[] a, long[] b, long[] out) {
        minHash(hashes, n, a, b, out, -1L);
    }

    /** A short name for logs and benchmarks. */
    String name();

    /** {@code v mod (2^61-1)} for an unsigned 64-bit {@code v}: fold the top 3 bits in, subtract once. */
    static long mod61(long v) {
        long r = (v & MERSENNE_61) + (v >>> 61);
        return r >= MERSENNE_61 ? r - MERSENNE_61 : r;
    }
}
