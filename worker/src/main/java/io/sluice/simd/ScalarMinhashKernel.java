package io.sluice.simd;

/** Plain-Java MinHash kernel; the reference the vector kernel is tested against, and the fallback. */
public final class ScalarMinhashKernel implements MinhashKernel {
    @Override
    public void minHash(long[] hashes, int n, long[] a, long[] b, long[] out, long mask) {
        checkArgs(hashes, n, a, b, out);
        for (int j = 0; j < a.length; j++) {
            out[j] = minOne(hashes, n, a[j], b[j], mask);
        }
    }

    static long minOne(long[] hashes, int n, long aj, long bj, long mask) {
        long acc = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            long r = MinhashKernel.mod61(aj * hashes[i] + bj) & mask;
            if (r < acc) {
                acc = r;
            }
        }
        return acc;
    }

    static void checkArgs(long[] hashes, int n, long[] a, long[] b, long[] out) {
        if (n < 1 || n > hashes.length || b.length != a.length || out.length < a.length) {
            throw new IllegalArgumentException("minHash: need 1 <= n <= hashes.length (n=" + n + ", "
                    + hashes.length + "), a and b of equal length (" + a.length + ", " + b.length
                    + ") and out at least as long (" + out.length + ")");
        }
    }

    @Override
    public String name() {
        return "scalar";
    }
}
