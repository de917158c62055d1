package io.sluice.dedup;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The permutation parameters {@code a} (in [1, 2^61-1)) and {@code b} (in [0, 2^61-1)) of the
 * {@code (a*h + b) mod (2^61-1)} hash family, drawn as datatrove draws them:
 * {@code gen = np.random.RandomState(seed); a = gen.randint(1, p, uint64, N); b = gen.randint(0, p, uint64, N)}.
 */
public record MinhashParameters(long[] a, long[] b) {
    public static final long MERSENNE_61 = (1L << 61) - 1;
    private static final ConcurrentHashMap<Key, MinhashParameters> CACHE = new ConcurrentHashMap<>();

    /** Parameters for {@code count} permutations (shared, do not modify the arrays). */
    public static MinhashParameters of(long seed, int count) {
        return CACHE.computeIfAbsent(new Key(seed, count), k -> {
            NumpyRandomState gen = new NumpyRandomState(seed);
            long[] a = gen.randintUint64(1, MERSENNE_61, count);
            long[] b = gen.randintUint64(0, MERSENNE_61, count);
            return new MinhashParameters(a, b);
        });
    }

    private record Key(long seed, int count) {
    }
}
