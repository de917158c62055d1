package io.sluice.text;

import java.text.Normalizer;

/**
 * What NFD followed by dropping the non-spacing marks (category Mn) makes of one BMP character, learnt
 * per character on first sight: {@code simplify_text}'s last step then costs a table lookup per
 * character instead of a call into the normaliser per run of non-Latin-1 text.
 *
 * <p>Why a character can be treated on its own: NFD decomposes each character independently and then
 * only reorders runs of combining marks (non-zero combining class), and characters outside the mark
 * categories have combining class 0, so they bound every such run. A character that is not a mark and
 * decomposes into a starter followed by non-spacing marks only can be replaced by the starter: the
 * marks it would have reordered with are dropped anyway, and dropping keeps the order of what is left.
 * Marks themselves, surrogates, and the few characters whose decomposition holds another kind of mark go
 * to the normaliser together with their neighbours of the same kind ({@link #IN_SEQUENCE}).
 * {@code TextNormalizerTest} checks every BMP character between marks of several combining classes.
 */
final class MarklessChars {
    /** The character is its own result. */
    static final String INERT = new String("inert");
    /** The character must be normalised in sequence with its neighbours. */
    static final String IN_SEQUENCE = new String("in sequence");

    /** null until a character is first seen; Strings are immutable, so racing threads can only store equal values. */
    private static final String[] RESULT = new String[0x10000];

    private MarklessChars() {
    }

    /** {@link #INERT}, {@link #IN_SEQUENCE}, or the character's NFD without non-spacing marks. */
    static String of(char c) {
        String r = RESULT[c];
        if (r == null) {
            r = classify(c);
            RESULT[c] = r;
        }
        return r;
    }

    private static String classify(char c) {
        if (Character.isSurrogate(c) || isMark(c)) {
            return IN_SEQUENCE;
        }
        String nfd = Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD);
        if (nfd.length() == 1 && nfd.charAt(0) == c) {
            return INERT;
        }
        StringBuilder kept = new StringBuilder(nfd.length());
        for (int k = 0; k < nfd.length(); k++) {
            char d = nfd.charAt(k);
            if (Character.isSurrogate(d) || (isMark(d) && (k == 0 || Character.getType(d) != Character.NON_SPACING_MARK))) {
                return IN_SEQUENCE;
            }
            if (!isMark(d)) {
                kept.append(d);
            }
        }
        return kept.toString();
    }

    private static boolean isMark(char c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }
}
