package io.sluice.bench;

import io.sluice.simd.MinhashKernel;
import io.sluice.simd.PanamaMinhashKernel;
import io.sluice.simd.ScalarMinhashKernel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The MinHash kernel alone: one document's worth of shingle hashes against datatrove's default
 * 112 permutations, scalar vs Vector API. Score = documents per second; multiply by {@code shingles}
 * for shingles per second. Smoke run: {@code java -jar native-bench/target/sluice-bench.jar
 * MinhashKernelBench -f 1 -wi 1 -i 2}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class MinhashKernelBench {
    @Param({"scalar", "panama"})
    public String kernel;

    @Param({"500"})
    public int shingles;

    private MinhashKernel k;
    private long[] hashes;
    private long[] a;
    private long[] b;
    private final long[] out = new long[112];

    @Setup
    public void setup() {
        k = kernel.equals("panama") ? new PanamaMinhashKernel() : new ScalarMinhashKernel();
        SplittableRandom rnd = new SplittableRandom(1);
        hashes = rnd.longs(shingles).toArray();
        a = rnd.longs(112, 1, MinhashKernel.MERSENNE_61).toArray();
        b = rnd.longs(112, 0, MinhashKernel.MERSENNE_61).toArray();
    }

    @Benchmark
    public long[] minHash() {
        k.minHash(hashes, shingles, a, b, out);
        return out;
    }
}
