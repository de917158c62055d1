package io.sluice.simd;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * MinHash kernel on the Vector API: lanes hold consecutive permutations, each shingle hash is
 * broadcast, and two vectors of permutations are processed per pass so the multiply latency
 * overlaps. Only loaded through {@link Kernels}, which checks that {@code jdk.incubator.vector} is
 * present; referencing this class directly without the module fails with a linkage error.
 */
public final class PanamaMinhashKernel implements MinhashKernel {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();

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
            for (int i = 0; i < n; i++) {
                long h = hashes[i];
                acc0 = acc0.min(permute(a0, b0, h, mask));
                acc1 = acc1.min(permute(a1, b1, h, mask));
            }
            acc0.intoArray(out, j);
            acc1.intoArray(out, j + LANES);
        }
        for (; j + LANES <= m; j += LANES) {
            LongVector a0 = LongVector.fromArray(SPECIES, a, j);
            LongVector b0 = LongVector.fromArray(SPECIES, b, j);
            LongVector acc0 = LongVector.broadcast(SPECIES, Long.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                acc0 = acc0.min(permute(a0, b0, hashes[i], mask));
            }
            acc0.intoArray(out, j);
        }
        for (; j < m; j++) {
            out[j] = ScalarMinhashKernel.minOne(hashes, n, a[j], b[j], mask);
        }
    }

    /** {@code ((a*h + b) mod 2^64) mod (2^61-1) & mask} per lane; see {@link MinhashKernel#mod61}. */
    private static LongVector permute(LongVector a, LongVector b, long h, long mask) {
        LongVector v = a.mul(h).add(b);
        LongVector r = v.and(MERSENNE_61).add(v.lanewise(VectorOperators.LSHR, 61));
        VectorMask<Long> over = r.compare(VectorOperators.GE, MERSENNE_61);
        r = r.sub(MERSENNE_61, over);
        return r.and(mask);
    }

    @Override
    public String name() {
        return "panama(" + LANES + "x64)";
    }
}
