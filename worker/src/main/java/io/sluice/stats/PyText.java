package io.sluice.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Python 3.11 {@code str} semantics the statistics depend on (Unicode 14 character classes as CPython
 * defines them; whitespace comes from {@link io.sluice.text.PyText}), so that a ratio computed here equals datatrove's. Lengths are code points, like
 * Python's {@code len}, not UTF-16 units.
 */
final class PyText {
    private PyText() {
    }

    /**
     * Characters that are Python digits but not Unicode decimal digits (Nd): superscripts, circled and
     * parenthesised digits and the like (Numeric_Type=Digit), as inclusive ranges.
     */
    private static final int[] EXTRA_DIGITS = {0xB2, 0xB3, 0xB9, 0xB9, 0x1369, 0x1371, 0x19DA, 0x19DA, 0x2070, 0x2070,
            0x2074, 0x2079, 0x2080, 0x2089, 0x2460, 0x2468, 0x2474, 0x247C, 0x2488, 0x2490, 0x24EA, 0x24EA, 0x24F5,
            0x24FD, 0x24FF, 0x24FF, 0x2776, 0x277E, 0x2780, 0x2788, 0x278A, 0x2792, 0x10A40, 0x10A43, 0x10E60,
            0x10E68, 0x11052, 0x1105A, 0x1F100, 0x1F10A};

    /** {@code str.isspace()} for one code point (the tokenizer's table, shared so all steps agree). */
    static boolean isSpace(int c) {
        return io.sluice.text.PyText.isSpace(c);
    }

    /** {@code str.isdigit()} for one code point. */
    static boolean isDigit(int c) {
        if (c < 0x80) {
            return c >= '0' && c <= '9';
        }
        if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
            return true;
        }
        for (int i = 0; i < EXTRA_DIGITS.length; i += 2) {
            if (c >= EXTRA_DIGITS[i] && c <= EXTRA_DIGITS[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /** {@code str.isalpha()} for one code point: categories Lu, Ll, Lt, Lm, Lo. */
    static boolean isAlpha(int c) {
        if (c < 0x80) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }
        return Character.isLetter(c);
    }

    /** {@code str.isupper()} for one code point: the Uppercase property (Lu plus Other_Uppercase). */
    static boolean isUpper(int c) {
        if (c < 0x80) {
            return c >= 'A' && c <= 'Z';
        }
        return Character.isUpperCase(c);
    }

    private static boolean isLower(int c) {
        if (c < 0x80) {
            return c >= 'a' && c <= 'z';
        }
        return Character.isLowerCase(c);
    }

    private static boolean isTitle(int c) {
        return c >= 0x80 && Character.isTitleCase(c);
    }

    /** {@code word.isupper()}: at least one cased character and no lowercase or titlecase one. */
    static boolean isUpperWord(String s) {
        boolean cased = false;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (isLower(c) || isTitle(c)) {
                return false;
            }
            if (isUpper(c)) {
                cased = true;
            }
        }
        return cased;
    }

    /** {@code word.istitle()}: upper/titlecase only after uncased, lowercase only after cased characters. */
    static boolean isTitleWord(String s) {
        boolean cased = false;
        boolean previousCased = false;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (isUpper(c) || isTitle(c)) {
                if (previousCased) {
                    return false;
                }
                previousCased = true;
                cased = true;
            } else if (isLower(c)) {
                if (!previousCased) {
                    return false;
                }
                previousCased = true;
                cased = true;
            } else {
                previousCased = false;
            }
        }
        return cased;
    }

    /** Python {@code len(s)}: code points. */
    static int len(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Python {@code s.strip()}. */
    static String strip(String s) {
        return io.sluice.text.PyText.strip(s);
    }

    /** Whether {@code s.strip()} would be empty. */
    static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isSpace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Python {@code s.split(sep)} for a literal, non-empty separator. */
    static List<String> split(String s, String sep) {
        List<String> out = new ArrayList<>();
        int from = 0;
        int at;
        while ((at = s.indexOf(sep, from)) >= 0) {
            out.add(s.substring(from, at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return out;
    }

    /**
     * {@code len(s.splitlines())}: lines end at \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, U+2028, U+2029; no
     * trailing empty line, and an empty string has no lines.
     */
    static int countLines(String s) {
        int lines = 0;
        int start = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (io.sluice.text.PyText.isLineBreak(c)) {
                lines++;
                i += (c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') ? 2 : 1;
                start = i;
            } else {
                i++;
            }
        }
        return start < n ? lines + 1 : lines;
    }
}
