package io.sluice.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MinhashKernelTest {
    private static final BigInteger TWO64 = BigInteger.ONE.shiftLeft(64);
    private static final BigInteger P = BigInteger.valueOf(MinhashKernel.MERSENNE_61);

    @Test
    void panamaIsAvailableInTestsAndAgreesWithScalarOnRandomInputs() {
        MinhashKernel panama = Kernels.loadPanama(MinhashKernel.class, "io.sluice.simd.PanamaMinhashKernel");
        assertNotNull(panama, "tests run with --add-modules jdk.incubator.vector");
        MinhashKernel scalar = new ScalarMinhashKernel();
        SplittableRandom rnd = new SplittableRandom(42);
        for (int m : new int[] {1, 3, 4, 5, 8, 13, 112, 113, 256}) {
            for (int n : new int[] {1, 2, 7, 100, 1000}) {
                long[] h = rnd.longs(n).toArray();
                // full 64-bit a and b too, so every wrap and the fold of the top bits are exercised
                long[] a = rnd.longs(m).toArray();
                long[] b = rnd.longs(m).toArray();
                for (long mask : new long[] {-1L, 0xFFFFFFFFL}) {
                    long[] want = new long[m];
                    long[] got = new long[m];
                    scalar.minHash(h, n, a, b, want, mask);
                    panama.minHash(h, n, a, b, got, mask);
                    assertArrayEquals(want, got, "m=" + m + " n=" + n + " mask=" + mask);
                }
            }
        }
    }

    /**
     * Values whose folded form is p or more (the vector kernel's rare exact path): with a = 1 and b = 0 the
     * permuted value is the hash itself, so hashes near 2^64 and equal to p hit it in chosen lanes.
     */
    @Test
    void panamaAgreesWhereTheFoldReachesP() {
        MinhashKernel panama = Kernels.loadPanama(MinhashKernel.class, "io.sluice.simd.PanamaMinhashKernel");
        MinhashKernel scalar = new ScalarMinhashKernel();
        SplittableRandom rnd = new SplittableRandom(3);
        for (int m : new int[] {1, 4, 8, 13, 112}) {
            for (int special = 0; special < m; special += 3) {
                long[] a = rnd.longs(m).toArray();
                long[] b = rnd.longs(m).toArray();
                a[special] = 1;
                b[special] = 0;
                long[] h = rnd.longs(64).toArray();
                h[5] = -1L; // folds to p + 7, which is 7
                h[9] = MinhashKernel.MERSENNE_61; // folds to p, which is 0
                for (long mask : new long[] {-1L, 0xFFFFFFFFL}) {
                    long[] want = new long[m];
                    long[] got = new long[m];
                    scalar.minHash(h, h.length, a, b, want, mask);
                    panama.minHash(h, h.length, a, b, got, mask);
                    assertEquals(0, want[special], "the hash equal to p gives 0");
                    assertArrayEquals(want, got, "m=" + m + " special=" + special + " mask=" + mask);
                }
            }
        }
    }

    @Test
    void scalarEqualsBigIntegerDefinition() {
        SplittableRandom rnd = new SplittableRandom(7);
        long[] h = rnd.longs(50).toArray();
        long[] a = rnd.longs(20).toArray();
        long[] b = rnd.longs(20).toArray();
        h[0] = -1L; // the largest unsigned value
        a[0] = -1L;
        b[0] = MinhashKernel.MERSENNE_61; // a sum equal to p must give 0, not p
        long[] out = new long[20];
        new ScalarMinhashKernel().minHash(h, h.length, a, b, out);
        for (int j = 0; j < a.length; j++) {
            BigInteger min = null;
            for (long x : h) {
                BigInteger v = u(a[j]).multiply(u(x)).add(u(b[j])).mod(TWO64).mod(P);
                min = min == null || v.compareTo(min) < 0 ? v : min;
            }
            assertEquals(min.longValueExact(), out[j], "permutation " + j);
        }
        assertEquals(0, MinhashKernel.mod61(MinhashKernel.MERSENNE_61));
        assertEquals(7, MinhashKernel.mod61(-1L) - (u(-1L).mod(P).longValueExact()) + 7);
    }

    private static BigInteger u(long v) {
        return new BigInteger(Long.toUnsignedString(v));
    }

    /** Runs {@link KernelChoiceMain} in a child JVM with the given extra flags; returns its output line. */
    private static String childJvm(String... flags) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(java.util.List.of(flags));
        cmd.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), KernelChoiceMain.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(0, p.waitFor(), err);
        return out;
    }

    @Test
    void choiceFollowsModuleAndProperty() throws Exception {
        // without the module the Panama class is never linked and the scalar kernel works
        String without = childJvm();
        String with = childJvm("--add-modules", "jdk.incubator.vector");
        String forced = childJvm("--add-modules", "jdk.incubator.vector", "-Dsluice.simd=scalar");
        assertEquals(true, without.startsWith("scalar "), without);
        assertEquals(true, with.startsWith("panama"), with);
        assertEquals(true, forced.startsWith("scalar "), forced);
        String result = without.substring(without.indexOf(' '));
        assertEquals(result, with.substring(with.indexOf(' ')));
        assertEquals(result, forced.substring(forced.indexOf(' ')));
    }
}
