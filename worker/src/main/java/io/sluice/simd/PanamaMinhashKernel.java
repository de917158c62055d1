package io.sluice.simd;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * MinHash kernel on the Vector API: lanes hold consecutive permutations, each shingle hash is
 * broadcast, and two vectors of permutations are processed per pass so the multiply latency
 * overlaps. Only loaded through {@link Kernels}, which checks that {@code jdk.incubator.vector} is
 * present; referencing this class directly without the module fails with a linkage error.
 *
 * <p>The Mersenne modulo's last step, subtracting p from a folded value {@code r} in [p, p+7], almost
 * never applies (8 values in 2^61) but cost a compare and a masked subtract per lane and shingle, which
 * AVX2 has no single instruction for. The loop takes the minimum of the folded values instead and ORs
 * {@code r + 1} into a flag, whose bit 61 is set exactly when some {@code r >= p}; those permutations
 * are then recomputed with the scalar kernel. Same results, about a fifth faster.
 */
public final class PanamaMinhashKernel implements MinhashKernel {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private static final long FOLDED_REACHES_P = 1L << 61;

    @Override
    public void minHash(long[] hashes, int n, long[] a, long[] b, long[] out, long mask) {
        ScalarMinhashKernel.checkArgs(hashes, n, a, b, out);
        int m = a.length;
        int j = 0;
        for (; j + 2 * LANES <= m; j += 2 * LANES) {
            LongVector a0 = LongVector.fromArray(SPECIES, a, j);
            LongVector b0 = LongVector.fromArray(SPECIES, b, j);
            LongVector a1 = LongVector.fromArray(SPECIES, a, j + LANES);
            LongVector b1 = LongVector.fromArray(SPECIES, b, j + LANES);
            LongVector acc0 = LongVector.broadcast(SPECIES, Long.MAX_VALUE);
            LongVector acc1 = acc0;
            LongVector flag0 = LongVector.zero(SPECIES);
            LongVector flag1 = flag0;
            for (int i = 0; i < n; i++) {
                long h = hashes[i];
                LongVector r0 = folded(a0, b0, h);
                LongVector r1 = folded(a1, b1, h);
                acc0 = acc0.min(r0.and(mask));
                acc1 = acc1.min(r1.and(mask));
                flag0 = flag0.or(r0.add(1));
                flag1 = flag1.or(r1.add(1));
            }
            acc0.intoArray(out, j);
            acc1.intoArray(out, j + LANES);
            if ((flag0.or(flag1).reduceLanes(VectorOperators.OR) & FOLDED_REACHES_P) != 0) {
                exact(hashes, n, a, b, out, mask, j, j + 2 * LANES);
            }
        }
        for (; j + LANES <= m; j += LANES) {
            LongVector a0 = LongVector.fromArray(SPECIES, a, j);
            LongVector b0 = LongVector.fromArray(SPECIES, b, j);
            LongVector acc0 = LongVector.broadcast(SPECIES, Long.MAX_VALUE);
            LongVector flag0 = LongVector.zero(SPECIES);
            for (int i = 0; i < n; i++) {
                LongVector r0 = folded(a0, b0, hashes[i]);
                acc0 = acc0.min(r0.and(mask));
                flag0 = flag0.or(r0.add(1));
            }
            acc0.intoArray(out, j);
            if ((flag0.reduceLanes(VectorOperators.OR) & FOLDED_REACHES_P) != 0) {
                exact(hashes, n, a, b, out, mask, j, j + LANES);
            }
        }
        exact(hashes, n, a, b, out, mask, j, m);
    }

    /**
     * {@code (a*h + b) mod 2^64} with its top 3 bits folded into the low 61: congruent to the value mod
     * p and in [0, p+7], so below 2^62 and {@code r + 1} has bit 61 set exactly when {@code r >= p}.
     */
    private static LongVector folded(LongVector a, LongVector b, long h) {
        LongVector v = a.mul(h).add(b);
        return v.and(MERSENNE_61).add(v.lanewise(VectorOperators.LSHR, 61));
    }

    private static void exact(long[] hashes, int n, long[] a, long[] b, long[] out, long mask, int from, int to) {
        for (int j = from; j < to; j++) {
            out[j] = ScalarMinhashKernel.minOne(hashes, n, a[j], b[j], mask);
        }
    }

    @Override
    public String name() {
        return "panama(" + LANES + "x64)";
    }
}
