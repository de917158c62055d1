package io.sluice.simd;

/**
 * Classifies UTF-16 text into bitmaps, 64 characters per {@code long}, so that the tokenizer finds word
 * and whitespace boundaries with bit operations instead of a branch per character. Two bitmaps,
 * interleaved per 64 characters: {@code bits[2 * w + k]} holds class {@code k} of characters
 * {@code 64 * w .. 64 * w + 63}, bit {@code j} for character {@code 64 * w + j}:
 * <ul>
 *   <li>{@link #SPACE}: Python's {@code str.isspace} (all such characters are in the BMP);</li>
 *   <li>{@link #ASCII_LETTER}: A-Z and a-z.</li>
 * </ul>
 * The bitmaps cover {@code length / 64 + 1} words: positions at and past {@code length} count as space
 * and nothing else, so a scan for the next space always ends by {@code length}.
 * Implementations must return identical bits.
 */
public interface CharClassKernel {
    int SPACE = 0;
    int ASCII_LETTER = 1;

    String name();

    /** The number of {@code long}s {@link #classify} writes for a text of {@code length} characters. */
    static int bitsLength(int length) {
        return 2 * (length / 64 + 1);
    }

    /** Writes the bitmaps of {@code chars[0:length]} into {@code bits[0:bitsLength(length)]}. */
    void classify(char[] chars, int length, long[] bits);

    /** Python's {@code isspace} for one UTF-16 unit: the definition both kernels follow. */
    static boolean isSpace(int c) {
        return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680
                || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }
}
