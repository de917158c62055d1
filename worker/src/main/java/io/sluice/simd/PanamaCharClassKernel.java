package io.sluice.simd;

import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link CharClassKernel} on the Vector API, a register of characters per step. ASCII-only blocks, most
 * of them, need two range compares for whitespace; the rare non-ASCII whitespace is tested only in
 * blocks that hold a character above U+007F. Only loaded through {@link Kernels}.
 */
public final class PanamaCharClassKernel implements CharClassKernel {
    private static final VectorSpecies<Short> SPECIES = ShortVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private final ScalarCharClassKernel tail = new ScalarCharClassKernel();

    public PanamaCharClassKernel() {
        if (64 % LANES != 0) {
            throw new IllegalStateException(LANES + " lanes do not divide 64");
        }
    }

    @Override
    public String name() {
        return "panama (" + SPECIES.vectorBitSize() + "-bit)";
    }

    @Override
    public void classify(char[] chars, int length, long[] bits) {
        int full = length / 64;
        for (int w = 0; w < full; w++) {
            long space = 0;
            long letter = 0;
            for (int j = 0; j < 64; j += LANES) {
                ShortVector v = ShortVector.fromCharArray(SPECIES, chars, (w << 6) + j);
                VectorMask<Short> ws = inRange(v, 0x09, 5).or(inRange(v, 0x1C, 5));
                if (inRange(v, 0x80, 0x10000 - 0x80).anyTrue()) {
                    ws = ws.or(v.eq((short) 0x85)).or(v.eq((short) 0xA0)).or(v.eq((short) 0x1680))
                            .or(inRange(v, 0x2000, 11)).or(v.eq((short) 0x2028)).or(v.eq((short) 0x2029))
                            .or(v.eq((short) 0x202F)).or(v.eq((short) 0x205F)).or(v.eq((short) 0x3000));
                }
                space |= ws.toLong() << j;
                // A-Z and a-z at once: setting bit 5 maps upper case onto lower case
                letter |= inRange(v.or((short) 0x20), 'a', 26).toLong() << j;
            }
            bits[2 * w + SPACE] = space;
            bits[2 * w + ASCII_LETTER] = letter;
        }
        // The last, partial block (and its end-of-text space bits) one character at a time.
        tail.classifyBlock(chars, full << 6, length - (full << 6), bits, 2 * full);
    }

    /**
     * The lanes with {@code lo <= c < lo + count}, characters compared unsigned: one add that shifts the
     * range to the bottom of the signed order and one signed compare. (The unsigned comparisons changed
     * name between JDK 21's and JDK 25's Vector API, so neither name links on both.)
     */
    private static VectorMask<Short> inRange(ShortVector v, int lo, int count) {
        return v.add((short) (0x8000 - lo)).compare(VectorOperators.LT, (short) (0x8000 + count));
    }
}
