package io.sluice.dedup;

/**
 * The part of numpy's legacy {@code np.random.RandomState(seed)} that datatrove's MinHash uses:
 * the MT19937 generator seeded with a 32-bit integer, and {@code randint(low, high, dtype=uint64)}
 * for ranges wider than 32 bits, which numpy draws by masked rejection sampling: take a 64-bit word
 * (two 32-bit outputs, the first one high), keep the bits under the smallest all-ones mask covering
 * the range, retry while the value exceeds it. Reproducing this exactly is what makes our
 * permutation parameters, and hence our signatures, identical to datatrove's.
 */
final class NumpyRandomState {
    private static final int N = 624;
    private static final int M = 397;
    private final int[] mt = new int[N];
    private int index;

    NumpyRandomState(long seed) {
        if (seed < 0 || seed > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("seed must be between 0 and 2**32 - 1, got " + seed);
        }
        mt[0] = (int) seed;
        for (int i = 1; i < N; i++) {
            mt[i] = 1812433253 * (mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
        }
        index = N;
    }

    /** The next 32-bit output of MT19937, as an unsigned value in an int. */
    int nextInt() {
        if (index >= N) {
            twist();
        }
        int y = mt[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y;
    }

    private void twist() {
        for (int i = 0; i < N; i++) {
            int y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7fffffff);
            int next = mt[(i + M) % N] ^ (y >>> 1);
            if ((y & 1) != 0) {
                next ^= 0x9908b0df;
            }
            mt[i] = next;
        }
        index = 0;
    }

    long nextLong() {
        long hi = nextInt() & 0xFFFFFFFFL;
        long lo = nextInt() & 0xFFFFFFFFL;
        return (hi << 32) | lo;
    }

    /**
     * {@code randint(low, high, size=count, dtype=uint64)} for {@code high - 1 - low} above 2^32
     * (the only case MinHash needs); values are unsigned 64-bit in longs.
     */
    long[] randintUint64(long low, long high, int count) {
        long range = high - 1 - low;
        if (Long.compareUnsigned(range, 0xFFFFFFFFL) <= 0 || range == -1L) {
            throw new IllegalArgumentException("only ranges wider than 32 bits and narrower than 64 are supported");
        }
        long mask = -1L >>> Long.numberOfLeadingZeros(range);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            long v;
            do {
                v = nextLong() & mask;
            } while (Long.compareUnsigned(v, range) > 0);
            out[i] = low + v;
        }
        return out;
    }
}
