package io.sluice.text;

import io.sluice.simd.CharClassKernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Python 3.11 {@code str} semantics that datatrove's results depend on, in one place so that the
 * tokenizer, the filters and the statistics agree: whitespace ({@code isspace}, {@code strip},
 * {@code split()}), line breaks ({@code splitlines}), character classes ({@code isdigit},
 * {@code isalpha}, {@code isupper}, {@code istitle}, Unicode 14 as CPython defines them), spaCy's
 * {@code is_punct}, and lengths in code points as Python's {@code len}, not UTF-16 units. Java's own
 * {@code String.strip()}, {@code split("\\s+")} or {@code lines()} differ on characters such as
 * U+001C..U+001F, U+0085, U+00A0 or U+2028, and those differences change decisions.
 */
public final class PyText {
    private static final byte SPACE = 1;
    private static final byte LINE_BREAK = 2;
    /**
     * The classes below for every BMP character, read with one load: as chains of comparisons they made
     * the JIT recompile the hot loops each time a rare space or line break first appeared in the data.
     */
    private static final byte[] CLASS = new byte[0x10000];
    /** {@link #lower} cuts long text into pieces of about this many characters. */
    private static final int LOWER_PIECE = 256;

    static {
        for (int c = 0; c < 0x10000; c++) {
            CLASS[c] = (byte) ((CharClassKernel.isSpace(c) ? SPACE : 0) | (definesLineBreak(c) ? LINE_BREAK : 0));
        }
        // The JDK loads the character data of each Unicode plane on first use. A plane first met in the
        // data while C2-compiled code that inlines Character's lookups is running sends that code back to
        // the interpreter to be compiled again ("unloaded" deoptimizations in the flight recorder: five
        // recompilations of word_stats' loop in one stats job, 0.2-0.4 CPU-s each). So load them all now.
        for (int plane : new int[] {0, 1, 2, 3, 4, 14, 15, 16}) {
            Character.getType((plane << 16) | 0x100);
        }
    }

    private PyText() {
    }

    /** Python's {@code chr(cp).isspace()} (Unicode 14): Java's whitespace notion differs (e.g. NBSP). */
    public static boolean isSpace(int cp) {
        return cp < 0x10000 && (CLASS[cp] & SPACE) != 0; // every Python space is in the BMP
    }

    /** A line break for Python's {@code splitlines()}: \n \v \f \r \x1c \x1d \x1e \x85 U+2028 U+2029. */
    public static boolean isLineBreak(char c) {
        return (CLASS[c] & LINE_BREAK) != 0;
    }

    /** Every line break of {@code splitlines()}, "\n" first. */
    public static final String LINE_BREAKS = "\n\r\u000B\u000C\u001C\u001D\u001E\u0085\u2028\u2029";

    private static boolean definesLineBreak(int c) {
        return c < 0x10000 && LINE_BREAKS.indexOf(c) >= 0;
    }

    /**
     * Python's {@code str.lower()}, as Java's {@code toLowerCase(Locale.ROOT)} computes it, but in pieces
     * cut after whitespace every few hundred characters: the JDK grows its result by one step for each
     * character that lowercases to two (U+0130, frequent in Turkish), which made a 50 MB document take
     * more than ten minutes. Final sigma looks no further than its word, and no word crosses whitespace,
     * so the pieces lowercase as the whole text does (the test compares them on random text).
     */
    public static String lower(String s) {
        int n = s.length();
        if (n <= 2 * LOWER_PIECE) {
            return s.toLowerCase(Locale.ROOT);
        }
        StringBuilder sb = new StringBuilder(n + 16);
        int start = 0;
        while (start < n) {
            int cut = Math.min(n, start + LOWER_PIECE);
            while (cut < n && !isSpace(s.charAt(cut - 1))) {
                cut++;
            }
            sb.append(s.substring(start, cut).toLowerCase(Locale.ROOT));
            start = cut;
        }
        return sb.toString();
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
                 Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION -> !Unicode14.newer(cp);
            default -> false;
        };
    }

    /** Python's {@code len()}: the number of code points. */
    public static int len(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Whether {@code s.strip()} would be empty. */
    public static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isSpace(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Python's {@code str.split()} with no argument: runs of whitespace separate, no empty parts. */
    public static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            int c;
            while (i < n && isSpace(c = s.codePointAt(i))) {
                i += Character.charCount(c);
            }
            int start = i;
            while (i < n && !isSpace(c = s.codePointAt(i))) {
                i += Character.charCount(c);
            }
            if (i > start) {
                out.add(s.substring(start, i));
            }
        }
        return out;
    }

    /** {@code len(s.split())} without building the words. */
    public static int countWords(String s) {
        return (int) countWords(s, Integer.MAX_VALUE);
    }

    /**
     * {@code len(s.split())} when it is below {@code limit}, else a count of at least {@code limit}
     * ({@code limit} itself when that is positive): stops at the {@code limit}-th word, for callers that
     * only compare the count with a minimum. Char by char: every Python space is in the BMP, so neither
     * half of a surrogate pair is one.
     */
    public static long countWords(String s, long limit) {
        long n = 0;
        boolean inWord = false;
        for (int i = 0, length = s.length(); i < length; i++) {
            boolean space = isSpace(s.charAt(i));
            if (!space && !inWord && ++n >= limit) {
                return n;
            }
            inWord = !space;
        }
        return n;
    }

    /**
     * Python's {@code any(len(w) > max for w in s.split())}: whether a word has more than {@code max}
     * code points. A word has no more code points than {@code s} has chars, so a short {@code s} is not
     * scanned; a low surrogate right after a high one ends a code point that was already counted.
     */
    public static boolean hasWordLongerThan(String s, long max) {
        if (s.length() <= max) {
            return false;
        }
        long current = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (isSpace(c)) {
                current = 0;
            } else if (!(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1)))
                    && ++current > max) {
                return true;
            }
        }
        return false;
    }

    /**
     * Python's {@code str.splitlines()}: splits on every line break ({@code \r\n} counts as one),
     * drops the breaks, and gives no empty last line after a final break ({@code ""} gives none).
     */
    public static List<String> splitLines(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (isLineBreak(c)) {
                out.add(s.substring(start, i));
                i += (c == '\r' && i + 1 < n && s.charAt(i + 1) == '\n') ? 2 : 1;
                start = i;
            } else {
                i++;
            }
        }
        if (start < n) {
            out.add(s.substring(start));
        }
        return out;
    }

    /** Python's {@code str.split(sep)} for a one-character separator: keeps empty parts. */
    public static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == sep) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /** Python's {@code str.count(sub)}: non-overlapping occurrences, scanning left to right. */
    public static int count(String s, String sub) {
        int n = 0;
        int i = s.indexOf(sub);
        while (i >= 0) {
            n++;
            i = s.indexOf(sub, i + sub.length());
        }
        return n;
    }

    public static int count(String s, char c) {
        int n = 0;
        // indexOf is a vectorised intrinsic: several times faster than a charAt loop on long texts
        for (int i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) {
            n++;
        }
        return n;
    }

    /** Python's {@code any(c.isalpha() for c in w)}: a letter of category Lu, Ll, Lt, Lm or Lo. */
    public static boolean hasLetter(String w) {
        return hasLetter(w, 0, w.length());
    }

    /** {@link #hasLetter(String)} of {@code s[from:to]}. */
    public static boolean hasLetter(String s, int from, int to) {
        for (int i = from; i < to; ) {
            int c = s.codePointAt(i);
            if (isAlpha(c)) {
                return true;
            }
            i += Character.charCount(c);
        }
        return false;
    }

    /**
     * Characters that are Python digits but not Unicode decimal digits (Nd): superscripts, circled and
     * parenthesised digits and the like (Numeric_Type=Digit), as inclusive ranges.
     */
    private static final int[] EXTRA_DIGITS = {0xB2, 0xB3, 0xB9, 0xB9, 0x1369, 0x1371, 0x19DA, 0x19DA, 0x2070, 0x2070,
            0x2074, 0x2079, 0x2080, 0x2089, 0x2460, 0x2468, 0x2474, 0x247C, 0x2488, 0x2490, 0x24EA, 0x24EA, 0x24F5,
            0x24FD, 0x24FF, 0x24FF, 0x2776, 0x277E, 0x2780, 0x2788, 0x278A, 0x2792, 0x10A40, 0x10A43, 0x10E60,
            0x10E68, 0x11052, 0x1105A, 0x1F100, 0x1F10A};

    /** {@code str.isdigit()} for one code point. */
    public static boolean isDigit(int c) {
        if (c < 0x80) {
            return c >= '0' && c <= '9';
        }
        if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
            return !Unicode14.newer(c);
        }
        for (int i = 0; i < EXTRA_DIGITS.length; i += 2) {
            if (c >= EXTRA_DIGITS[i] && c <= EXTRA_DIGITS[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Java's general category of {@code cp}, as Python 3.11 (Unicode 14) has it: {@link Character#UNASSIGNED}
     * for the code points Unicode 15 and 16 added ({@link Unicode14}).
     */
    public static int category(int cp) {
        int type = Character.getType(cp);
        return type != Character.UNASSIGNED && Unicode14.newer(cp) ? Character.UNASSIGNED : type;
    }

    /** {@code str.isalpha()} for one code point: categories Lu, Ll, Lt, Lm, Lo. */
    public static boolean isAlpha(int c) {
        if (c < 0x80) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }
        return Character.isLetter(c) && !Unicode14.newer(c);
    }

    /** {@code str.isupper()} for one code point: the Uppercase property (Lu plus Other_Uppercase). */
    public static boolean isUpper(int c) {
        if (c < 0x80) {
            return c >= 'A' && c <= 'Z';
        }
        return Character.isUpperCase(c) && !Unicode14.newer(c);
    }

    private static boolean isLower(int c) {
        if (c < 0x80) {
            return c >= 'a' && c <= 'z';
        }
        return Character.isLowerCase(c) && !Unicode14.newer(c) && !Unicode14.lowerOnlyInJava(c);
    }

    private static boolean isTitle(int c) {
        return c >= 0x80 && Character.isTitleCase(c) && !Unicode14.newer(c);
    }

    /** {@code word.isupper()}: at least one cased character and no lowercase or titlecase one. */
    public static boolean isUpperWord(String s) {
        return isUpperWord(s, 0, s.length());
    }

    /** {@link #isUpperWord(String)} of {@code s[from:to]}. */
    public static boolean isUpperWord(String s, int from, int to) {
        boolean cased = false;
        for (int i = from; i < to; ) {
            int c = s.charAt(i);
            if (c < 0x80) {
                i++;
            } else {
                c = s.codePointAt(i);
                i += Character.charCount(c);
            }
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
    public static boolean isTitleWord(String s) {
        return isTitleWord(s, 0, s.length());
    }

    /** {@link #isTitleWord(String)} of {@code s[from:to]}. */
    public static boolean isTitleWord(String s, int from, int to) {
        boolean cased = false;
        boolean previousCased = false;
        for (int i = from; i < to; ) {
            int c = s.charAt(i);
            if (c < 0x80) {
                i++;
            } else {
                c = s.codePointAt(i);
                i += Character.charCount(c);
            }
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

    /** Python {@code s.split(sep)} for a literal, non-empty separator. */
    public static List<String> split(String s, String sep) {
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
    public static int countLines(String s) {
        int lines = 0;
        int start = 0;
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (isLineBreak(c)) {
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
