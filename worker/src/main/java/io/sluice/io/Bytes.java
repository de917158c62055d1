package io.sluice.io;

import io.sluice.simd.ByteScanKernel;
import io.sluice.simd.Kernels;

/** The read path's byte scans, through the kernel chosen once for this JVM (Vector API or SWAR). */
public final class Bytes {
    private static final ByteScanKernel KERNEL = Kernels.byteScan();

    private Bytes() {
    }

    /** Index of the first {@code '\n'} or {@code '\r'} in [from, to), or -1. */
    public static int indexOfLineEnd(byte[] b, int from, int to) {
        return KERNEL.indexOfLineEnd(b, from, to);
    }

    /** Index of the first {@code value} in [from, to), or -1. */
    public static int indexOf(byte[] b, int from, int to, byte value) {
        return KERNEL.indexOf(b, from, to, value);
    }

    /** Index of the first quote, backslash, control or non-ASCII byte in [from, to), or {@code to}. */
    public static int indexOfStringSpecial(byte[] b, int from, int to) {
        return KERNEL.indexOfStringSpecial(b, from, to);
    }
}
