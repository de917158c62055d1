package io.sluice.simd;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Byte scans on the Vector API, a full vector register of bytes per step. A signed compare
 * {@code < 0x20} catches control characters and every non-ASCII byte (negative in Java) at once.
 * Only loaded through {@link Kernels}.
 */
public final class PanamaByteScanKernel implements ByteScanKernel {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private final ScalarByteScanKernel tail = new ScalarByteScanKernel();

    @Override
    public String name() {
        return "panama (" + SPECIES.vectorBitSize() + "-bit)";
    }

    @Override
    public int indexOf(byte[] b, int from, int to, byte value) {
        int i = from;
        for (; i + LANES <= to; i += LANES) {
            var hit = ByteVector.fromArray(SPECIES, b, i).eq(value);
            if (hit.anyTrue()) {
                return i + hit.firstTrue();
            }
        }
        return tail.indexOf(b, i, to, value);
    }

    @Override
    public int indexOfLineEnd(byte[] b, int from, int to) {
        int i = from;
        for (; i + LANES <= to; i += LANES) {
            ByteVector v = ByteVector.fromArray(SPECIES, b, i);
            var hit = v.eq((byte) '\n').or(v.eq((byte) '\r'));
            if (hit.anyTrue()) {
                return i + hit.firstTrue();
            }
        }
        return tail.indexOfLineEnd(b, i, to);
    }

    @Override
    public int indexOfStringSpecial(byte[] b, int from, int to) {
        int i = from;
        for (; i + LANES <= to; i += LANES) {
            ByteVector v = ByteVector.fromArray(SPECIES, b, i);
            var hit = v.eq((byte) '"').or(v.eq((byte) '\\')).or(v.compare(VectorOperators.LT, (byte) 0x20));
            if (hit.anyTrue()) {
                return i + hit.firstTrue();
            }
        }
        return ScalarByteScanKernel.firstSpecial(b, i, to);
    }
}
