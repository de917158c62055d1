package io.sluice.simd;

/** {@link CharClassKernel} one character at a time, through a table of the class bits per UTF-16 unit. */
public final class ScalarCharClassKernel implements CharClassKernel {
    private static final byte[] CLASSES = new byte[65536];

    static {
        for (int c = 0; c < 65536; c++) {
            boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            CLASSES[c] = (byte) ((CharClassKernel.isSpace(c) ? 1 << SPACE : 0) | (letter ? 1 << ASCII_LETTER : 0));
        }
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void classify(char[] chars, int length, long[] bits) {
        int words = length / 64 + 1;
        for (int w = 0; w < words; w++) {
            classifyBlock(chars, w << 6, Math.min(64, length - (w << 6)), bits, 2 * w);
        }
    }

    /**
     * Classifies {@code chars[base:base+n]} ({@code n <= 64}) into {@code bits[at:at+2]}, positions from
     * {@code n} on as past the end of the text.
     */
    void classifyBlock(char[] chars, int base, int n, long[] bits, int at) {
        long space = 0;
        long letter = 0;
        for (int j = 0; j < n; j++) {
            long k = CLASSES[chars[base + j]];
            space |= (k >> SPACE & 1) << j;
            letter |= (k >> ASCII_LETTER & 1) << j;
        }
        if (n < 64) {
            space |= -1L << n; // past the end: space, so that scans stop there
        }
        bits[at + SPACE] = space;
        bits[at + ASCII_LETTER] = letter;
    }
}
