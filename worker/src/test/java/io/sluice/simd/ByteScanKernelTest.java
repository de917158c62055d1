package io.sluice.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Vector API and the scalar byte scans must agree on every input, at every offset. */
class ByteScanKernelTest {
    private final ByteScanKernel scalar = new ScalarByteScanKernel();
    private final ByteScanKernel panama = Kernels.loadPanama(ByteScanKernel.class, "io.sluice.simd.PanamaByteScanKernel");

    @Test
    void panamaKernelIsAvailableInTests() {
        assertNotNull(panama, "tests run with --add-modules jdk.incubator.vector");
    }

    @Test
    void bothKernelsAgreeOnRandomBytes() {
        Random r = new Random(5);
        byte[] alphabet = {'a', 'b', ' ', '"', '\\', '\n', '\r', '\t', 0x1f, 0x20, 0x7f, (byte) 0x80, (byte) 0xc3, (byte) 0xff, '{'};
        for (int round = 0; round < 3000; round++) {
            byte[] b = new byte[r.nextInt(200)];
            int density = 1 + r.nextInt(60); // from dense to very sparse special bytes
            for (int i = 0; i < b.length; i++) {
                b[i] = r.nextInt(density) == 0 ? alphabet[r.nextInt(alphabet.length)] : (byte) ('a' + r.nextInt(26));
            }
            int from = b.length == 0 ? 0 : r.nextInt(b.length);
            int to = from + (b.length == from ? 0 : r.nextInt(b.length - from + 1));
            assertEquals(naiveLineEnd(b, from, to), scalar.indexOfLineEnd(b, from, to));
            assertEquals(naiveLineEnd(b, from, to), panama.indexOfLineEnd(b, from, to));
            byte value = alphabet[r.nextInt(alphabet.length)]; // the backslash and bytes above 0x7F among them
            assertEquals(naiveIndexOf(b, from, to, value), scalar.indexOf(b, from, to, value), "value " + value);
            assertEquals(naiveIndexOf(b, from, to, value), panama.indexOf(b, from, to, value), "value " + value);
            assertEquals(naiveSpecial(b, from, to), scalar.indexOfStringSpecial(b, from, to));
            assertEquals(naiveSpecial(b, from, to), panama.indexOfStringSpecial(b, from, to));
        }
    }

    private static int naiveIndexOf(byte[] b, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static int naiveLineEnd(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n' || b[i] == '\r') {
                return i;
            }
        }
        return -1;
    }

    private static int naiveSpecial(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            int c = b[i] & 0xff;
            if (c == '"' || c == '\\' || c < 0x20 || c > 0x7f) {
                return i;
            }
        }
        return to;
    }
}
