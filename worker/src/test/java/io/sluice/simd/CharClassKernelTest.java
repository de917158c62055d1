package io.sluice.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Vector API and the scalar character classifiers must agree with the definition, bit for bit. */
class CharClassKernelTest {
    private final CharClassKernel scalar = new ScalarCharClassKernel();
    private final CharClassKernel panama = Kernels.loadPanama(CharClassKernel.class, "io.sluice.simd.PanamaCharClassKernel");

    @Test
    void panamaKernelIsAvailableInTests() {
        assertNotNull(panama, "tests run with --add-modules jdk.incubator.vector");
    }

    @Test
    void everyUtf16UnitIsClassifiedAsDefined() {
        char[] all = new char[65536];
        for (int c = 0; c < all.length; c++) {
            all[c] = (char) c;
        }
        long[] expected = expected(all, all.length);
        assertArrayEquals(expected, classify(scalar, all, all.length));
        assertArrayEquals(expected, classify(panama, all, all.length));
    }

    @Test
    void pythonWhitespaceIsTheKnownList() {
        // CPython: ''.join(chr(c) for c in range(0x10000) if chr(c).isspace())
        String python = "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004"
                + "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
        StringBuilder ours = new StringBuilder();
        for (int c = 0; c < 0x10000; c++) {
            if (CharClassKernel.isSpace(c)) {
                ours.append((char) c);
            }
        }
        assertEquals(python, ours.toString());
    }

    @Test
    void bothKernelsAgreeOnRandomTextOfEveryLength() {
        Random r = new Random(11);
        char[] alphabet = {'a', 'Z', ' ', '\n', '\t', '\r', 0x1f, 0x85, 0xa0, 0x1680, 0x2009, 0x200b, 0x2028, 0x3000,
            'é', '中', 0xd83d, 0xde00, '.', '@', '`', '{', '[', 0xffff, 0};
        for (int round = 0; round < 3000; round++) {
            int length = r.nextInt(300);
            char[] chars = new char[length + r.nextInt(70)]; // what follows the text must not matter
            for (int i = 0; i < chars.length; i++) {
                chars[i] = r.nextInt(1 + r.nextInt(8)) == 0 ? alphabet[r.nextInt(alphabet.length)] : (char) ('a' + r.nextInt(26));
            }
            long[] expected = expected(chars, length);
            assertArrayEquals(expected, classify(scalar, chars, length), "length " + length);
            assertArrayEquals(expected, classify(panama, chars, length), "length " + length);
        }
    }

    private static long[] classify(CharClassKernel kernel, char[] chars, int length) {
        long[] bits = new long[CharClassKernel.bitsLength(length) + 3];
        java.util.Arrays.fill(bits, 0x5555); // stale content past the end must stay as it was
        kernel.classify(chars, length, bits);
        return bits;
    }

    /** The bitmaps straight from the definition, one character at a time. */
    private static long[] expected(char[] chars, int length) {
        long[] bits = new long[CharClassKernel.bitsLength(length) + 3];
        java.util.Arrays.fill(bits, 0x5555);
        for (int w = 0; w < length / 64 + 1; w++) {
            bits[2 * w] = 0;
            bits[2 * w + 1] = 0;
        }
        for (int i = 0; i < CharClassKernel.bitsLength(length) / 2 * 64; i++) {
            boolean space = i >= length || CharClassKernel.isSpace(chars[i]);
            boolean letter = i < length && ((chars[i] >= 'a' && chars[i] <= 'z') || (chars[i] >= 'A' && chars[i] <= 'Z'));
            bits[2 * (i / 64) + CharClassKernel.SPACE] |= (space ? 1L : 0) << i;
            bits[2 * (i / 64) + CharClassKernel.ASCII_LETTER] |= (letter ? 1L : 0) << i;
        }
        return bits;
    }
}
