package io.sluice.bench;

import io.sluice.simd.CharClassKernel;
import io.sluice.simd.PanamaCharClassKernel;
import io.sluice.simd.ScalarCharClassKernel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The tokenizer's character classifier alone (whitespace and ASCII-letter bitmaps), scalar vs Vector
 * API, over 64 KB of English-like text: words of 1-10 letters, punctuation, spaces and newlines, and
 * with {@code nonAscii} an accented or CJK character in one word of eight (blocks holding one take the
 * Vector API's slower path for non-ASCII whitespace). Score = nanoseconds per 64 characters. Smoke run:
 * {@code java -jar native-bench/target/sluice-bench.jar CharClassKernelBench -f 1 -wi 1 -i 2}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class CharClassKernelBench {
    private static final int LENGTH = 1 << 16;

    @Param({"scalar", "panama"})
    public String kernel;

    @Param({"false", "true"})
    public boolean nonAscii;

    private CharClassKernel k;
    private char[] text;
    private long[] bits;

    @Setup
    public void setup() {
        k = kernel.equals("panama") ? new PanamaCharClassKernel() : new ScalarCharClassKernel();
        SplittableRandom rnd = new SplittableRandom(1);
        text = new char[LENGTH];
        int i = 0;
        while (i < LENGTH) {
            int word = 1 + rnd.nextInt(10);
            for (int j = 0; j < word && i < LENGTH; j++) {
                text[i++] = nonAscii && j == 0 && rnd.nextInt(8) == 0 ? "é中ü".charAt(rnd.nextInt(3)) : (char) ('a' + rnd.nextInt(26));
            }
            if (i < LENGTH) {
                text[i++] = ".,;\n  ".charAt(rnd.nextInt(6));
            }
        }
        bits = new long[CharClassKernel.bitsLength(LENGTH)];
    }

    @Benchmark
    @OperationsPerInvocation(LENGTH / 64)
    public long[] classify() {
        k.classify(text, LENGTH, bits);
        return bits;
    }
}
