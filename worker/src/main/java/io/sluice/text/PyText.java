package io.sluice.text;

/**
 * Python {@code str} semantics that datatrove's results depend on: what counts as whitespace
 * ({@code str.isspace}, used by spaCy to split text and by {@code str.strip}) and what counts as
 * punctuation (spaCy's {@code is_punct}: every character in a Unicode "P" category).
 */
public final class PyText {
    private PyText() {
    }

    /** Python's {@code chr(cp).isspace()} (Unicode 14): Java's whitespace notion differs (e.g. NBSP). */
    public static boolean isSpace(int cp) {
        if (cp <= 0x20) {
            return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
        }
        if (cp < 0x85) {
            return false;
        }
        return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A)
                || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
    }

    /**
     * A line break for Python's {@code splitlines()}: \n \v \f \r \x1c \x1d \x1e \x85 U+2028 U+2029.
     * Ordered so that an ordinary character (above U+001E) costs three comparisons: line scans run
     * over every character of every document.
     */
    public static boolean isLineBreak(char c) {
        if (c > 0x1E) {
            return c == 0x85 || c == 0x2028 || c == 0x2029;
        }
        return (c >= 0x0A && c <= 0x0D) || c >= 0x1C;
    }

    /** Python's {@code s.strip()}: removes leading and trailing {@link #isSpace} characters. */
    public static String strip(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && isSpace(s.charAt(from))) {
            from++; // every Python space is a single UTF-16 unit
        }
        while (to > from && isSpace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    /** Python's {@code s[from:to].strip()} without building the unstripped string first. */
    public static String strip(String s, int from, int to) {
        while (from < to && isSpace(s.charAt(from))) {
            from++;
        }
        while (to > from && isSpace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    /** spaCy's {@code is_punct}: every code point of {@code s[from:to]} is in a Unicode "P*" category. */
    public static boolean isPunct(CharSequence s, int from, int to) {
        for (int i = from; i < to; ) {
            int cp = Character.codePointAt(s, i);
            if (!isPunctuation(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    private static boolean isPunctuation(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                 Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                 Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }
}
