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
 * The MinHash kernel alone: one document's worth of shingle hashes against 112 (datatrove's default
 * 14 x 8) or 256 permutations, scalar vs Vector API. Score = nanoseconds per shingle (all
 * permutations of one shingle). Smoke run: {@code java -jar native-bench/target/sluice-bench.jar
 * MinhashKernelBench -f 1 -wi 1 -i 2}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class MinhashKernelBench {
    @Param({"scalar", "panama"})
    public String kernel;

    @Param({"500"}) // must equal @OperationsPerInvocation below
    public int shingles;

    @Param({"112", "256"})
    public int permutations;

    private MinhashKernel k;
    private long[] hashes;
    private long[] a;
    private long[] b;
    private long[] out;

    @Setup
    public void setup() {
        k = kernel.equals("panama") ? new PanamaMinhashKernel() : new ScalarMinhashKernel();
        SplittableRandom rnd = new SplittableRandom(1);
        hashes = rnd.longs(shingles).toArray();
        a = rnd.longs(permutations, 1, MinhashKernel.MERSENNE_61).toArray();
        b = rnd.longs(permutations, 0, MinhashKernel.MERSENNE_61).toArray();
        out = new long[permutations];
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(500)
    public long[] minHash() {
        k.minHash(hashes, shingles, a, b, out);
        return out;
    }
}
