package io.sluice.filters;

import java.util.BitSet;

/**
 * datatrove's punctuation sets ({@code datatrove.utils.text}): {@code PUNCTUATION_SET}, used to tell
 * "symbol" tokens from words, and {@code TERMINAL_PUNCTUATION}, the sentence-ending marks of many
 * scripts that FineWeb's line-ending test uses. Same characters, looked up by code point.
 */
public final class Punctuation {
    private static final String PUNCTUATION = "!/\u2014\u201d:\uff05\uff11\u3008&(\u3001\u2501\\\u3010#%\u300c\u300d"
            + "\uff0c\u3011\uff1b+^]~\u201c\u300a\u201e';\u2019{|\u2236\u00b4[=-`*\uff0e\uff08\u2013\uff1f\uff01"
            + "\uff1a$\uff5e\u00ab\u3009,><\u300b)?\uff09\u3002\u2026@_.\"}\u25ba\u00bb";

    private static final int[] TERMINAL = {
        0x21, 0x2E, 0x3F, 0x589, 0x61D, 0x61E, 0x61F, 0x6D4, 0x700, 0x701, 0x702, 0x7F9, 0x837, 0x839, 0x83D,
        0x83E, 0x964, 0x965, 0x104A, 0x104B, 0x1362, 0x1367, 0x1368, 0x166E, 0x1735, 0x1736, 0x17D4, 0x17D5,
        0x17D6, 0x17D9, 0x17DA, 0x1803, 0x1809, 0x1944, 0x1945, 0x1AA8, 0x1AA9, 0x1AAA, 0x1AAB, 0x1B5A, 0x1B5B,
        0x1B5E, 0x1B5F, 0x1B7D, 0x1B7E, 0x1C3B, 0x1C3C, 0x1C7E, 0x1C7F, 0x203C, 0x203D, 0x2047, 0x2048, 0x2049,
        0x2E2E, 0x2E3C, 0x2E53, 0x2E54, 0x3002, 0xA4FF, 0xA60E, 0xA60F, 0xA6F3, 0xA6F7, 0xA876, 0xA877, 0xA8CE,
        0xA8CF, 0xA92F, 0xA9C8, 0xA9C9, 0xAA5D, 0xAA5E, 0xAA5F, 0xAAF0, 0xAAF1, 0xABEB, 0xFE52, 0xFE56, 0xFE57,
        0xFF01, 0xFF0E, 0xFF1F, 0xFF61, 0x10A56, 0x10A57, 0x10F55, 0x10F56, 0x10F57, 0x10F58, 0x10F59, 0x10F86,
        0x10F87, 0x10F88, 0x10F89, 0x11047, 0x11048, 0x110BE, 0x110BF, 0x110C0, 0x110C1, 0x11141, 0x11142,
        0x11143, 0x111C5, 0x111C6, 0x111CD, 0x111DE, 0x111DF, 0x11238, 0x11239, 0x1123B, 0x1123C, 0x112A9,
        0x1144B, 0x1144C, 0x115C2, 0x115C3, 0x115C9, 0x115CA, 0x115CB, 0x115CC, 0x115CD, 0x115CE, 0x115CF,
        0x115D0, 0x115D1, 0x115D2, 0x115D3, 0x115D4, 0x115D5, 0x115D6, 0x115D7, 0x11641, 0x11642, 0x1173C,
        0x1173D, 0x1173E, 0x11944, 0x11946, 0x11A42, 0x11A43, 0x11A9B, 0x11A9C, 0x11C41, 0x11C42, 0x11EF7,
        0x11EF8, 0x11F43, 0x11F44, 0x16A6E, 0x16A6F, 0x16AF5, 0x16B37, 0x16B38, 0x16B44, 0x16E98, 0x1BC9F, 0x1DA88,
    };

    private static final BitSet PUNCT = new BitSet();
    private static final BitSet TERM = new BitSet();

    static {
        PUNCTUATION.codePoints().forEach(PUNCT::set);
        // the control characters datatrove appends: 0-8, 11-12, 13-31, 127-159 (tab and \n are not symbols)
        PUNCT.set(0, 9);
        PUNCT.set(11, 32);
        PUNCT.set(127, 160);
        for (int c : TERMINAL) {
            TERM.set(c);
        }
        PUNCT.or(TERM);
    }

    private Punctuation() {
    }

    /** In datatrove's {@code PUNCTUATION_SET} (which includes the terminal marks). */
    public static boolean isPunctuation(int codePoint) {
        return PUNCT.get(codePoint);
    }

    /** True when every character of {@code text[from:to]}, a token, is punctuation: a "symbol" rather than a word. */
    public static boolean isSymbolToken(String text, int from, int to) {
        for (int i = from; i < to; ) {
            int c = text.codePointAt(i);
            if (!PUNCT.get(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /** True when the string's last code point is terminal punctuation. */
    public static boolean endsWithTerminal(String s) {
        return !s.isEmpty() && TERM.get(s.codePointBefore(s.length()));
    }
}
