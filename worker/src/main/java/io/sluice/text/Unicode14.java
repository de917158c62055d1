package io.sluice.text;

import java.util.BitSet;

/**
 * The code points Java's character tables know that CPython 3.11's do not. datatrove ran on Python 3.11, whose
 * {@code str} methods follow Unicode 14.0; JDK 25 follows Unicode 16.0, which assigned 10,301 more code points
 * (CJK extensions H and I, Kawi, Nag Mundari, Garay...). Python reads them as unassigned (Cn): not letters, digits,
 * upper case or punctuation, so {@link PyText} asks here before taking Java's answer. Of the code points assigned in
 * Unicode 14, five became lower case since ({@link #lowerOnlyInJava}); U+1171E moved from Mn to Mc, and the
 * mark stripping of the MinHash simplification still follows Java there (checked over all 1,114,112 code points
 * against CPython 3.11.7).
 */
final class Unicode14 {
    /** Inclusive ranges, made by listing the code points CPython 3.11.7 calls Cn that JDK 25 assigns. */
    private static final int[] NEWER = {
            0x897, 0x897, 0xCF3, 0xCF3, 0xECE, 0xECE, 0x1B4E, 0x1B4F,
            0x1B7F, 0x1B7F, 0x1C89, 0x1C8A, 0x2427, 0x2429, 0x2FFC, 0x2FFF,
            0x31E4, 0x31E5, 0x31EF, 0x31EF, 0xA7CB, 0xA7CD, 0xA7DA, 0xA7DC,
            0x105C0, 0x105F3, 0x10D40, 0x10D65, 0x10D69, 0x10D85, 0x10D8E, 0x10D8F,
            0x10EC2, 0x10EC4, 0x10EFC, 0x10EFF, 0x1123F, 0x11241, 0x11380, 0x11389,
            0x1138B, 0x1138B, 0x1138E, 0x1138E, 0x11390, 0x113B5, 0x113B7, 0x113C0,
            0x113C2, 0x113C2, 0x113C5, 0x113C5, 0x113C7, 0x113CA, 0x113CC, 0x113D5,
            0x113D7, 0x113D8, 0x113E1, 0x113E2, 0x116D0, 0x116E3, 0x11B00, 0x11B09,
            0x11BC0, 0x11BE1, 0x11BF0, 0x11BF9, 0x11F00, 0x11F10, 0x11F12, 0x11F3A,
            0x11F3E, 0x11F5A, 0x1342F, 0x1342F, 0x13439, 0x13455, 0x13460, 0x143FA,
            0x16100, 0x16139, 0x16D40, 0x16D79, 0x18CFF, 0x18CFF, 0x1B132, 0x1B132,
            0x1B155, 0x1B155, 0x1CC00, 0x1CCF9, 0x1CD00, 0x1CEB3, 0x1D2C0, 0x1D2D3,
            0x1DF25, 0x1DF2A, 0x1E030, 0x1E06D, 0x1E08F, 0x1E08F, 0x1E4D0, 0x1E4F9,
            0x1E5D0, 0x1E5FA, 0x1E5FF, 0x1E5FF, 0x1F6DC, 0x1F6DC, 0x1F774, 0x1F776,
            0x1F77B, 0x1F77F, 0x1F7D9, 0x1F7D9, 0x1F8B2, 0x1F8BB, 0x1F8C0, 0x1F8C1,
            0x1FA75, 0x1FA77, 0x1FA87, 0x1FA89, 0x1FA8F, 0x1FA8F, 0x1FAAD, 0x1FAAF,
            0x1FABB, 0x1FABF, 0x1FAC6, 0x1FAC6, 0x1FACE, 0x1FACF, 0x1FADA, 0x1FADC,
            0x1FADF, 0x1FADF, 0x1FAE8, 0x1FAE9, 0x1FAF7, 0x1FAF8, 0x1FBCB, 0x1FBEF,
            0x2B739, 0x2B739, 0x2EBF0, 0x2EE5D, 0x31350, 0x323AF
    };
    private static final BitSet NEWER_SET = new BitSet();

    static {
        for (int i = 0; i < NEWER.length; i += 2) {
            NEWER_SET.set(NEWER[i], NEWER[i + 1] + 1);
        }
    }

    private Unicode14() {
    }

    /** Is {@code cp} assigned in Java's tables but not in Unicode 14 (Python 3.11's {@code unicodedata})? */
    static boolean newer(int cp) {
        return NEWER_SET.get(cp);
    }

    /**
     * Letters of Unicode 14 that Java's tables call lower case (Other_Lowercase since Unicode 15: modifier letters
     * U+10FC, U+A7F2-U+A7F4, U+AB69) and Python 3.11's do not: "A\uA7F2".isupper() is True in Python.
     */
    static boolean lowerOnlyInJava(int cp) {
        return cp == 0x10FC || (cp >= 0xA7F2 && cp <= 0xA7F4) || cp == 0xAB69;
    }

    /** The number of such code points (for the test that checks the table against Java's own). */
    static int count() {
        return NEWER_SET.cardinality();
    }
}
