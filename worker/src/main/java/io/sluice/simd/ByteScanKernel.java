package io.sluice.simd;

/**
 * The byte scans of the read path: where the next line ends, and where the next byte inside a JSON
 * string needs a closer look. Implementations must return identical results.
 */
public interface ByteScanKernel {
    String name();

    /** Index of the first {@code '\n'} or {@code '\r'} in [from, to), or -1: where a line ends, as Python reads lines. */
    int indexOfLineEnd(byte[] b, int from, int to);

    /** Index of the first byte equal to {@code value} in [from, to), or -1. */
    int indexOf(byte[] b, int from, int to, byte value);

    /**
     * Index of the first byte in [from, to) that is a quote, a backslash, below 0x20 or above 0x7F
     * (the bytes a JSON string scanner must look at), or {@code to} when there is none.
     */
    int indexOfStringSpecial(byte[] b, int from, int to);
}
