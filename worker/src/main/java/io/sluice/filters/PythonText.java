package io.sluice.filters;

import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.List;

/**
 * The few Python {@code str} operations datatrove's filters are written with, with Python's exact
 * semantics: {@code isspace}, {@code strip}, {@code split()}, {@code splitlines()}, {@code count},
 * {@code len}. Java's {@code String.strip()}, {@code split("\\s+")} or {@code lines()} differ on
 * characters such as U+001C..U+001F, U+0085 or U+2028, and those differences change decisions.
 *
 * <p>Lengths are Python lengths: code points, not UTF-16 units. Whitespace and {@code strip} are the
 * tokenizer's ({@link PyText}); this class adds what the filters need on top.
 */
public final class PythonText {
    private PythonText() {
    }

    /** Python's {@code str.isspace()} for one code point (shared with the tokenizer: {@link PyText#isSpace}). */
    public static boolean isSpace(int c) {
        return PyText.isSpace(c);
    }

    /** Python's {@code len()}: the number of code points. */
    public static int len(String s) {
        return s.codePointCount(0, s.length());
    }

    public static String strip(String s) {
        return PyText.strip(s);
    }

    private static int stripStart(String s) {
        int i = 0;
        while (i < s.length()) {
            int c = s.codePointAt(i);
            if (!isSpace(c)) {
                break;
            }
            i += Character.charCount(c);
        }
        return i;
    }

    /** True when {@code s.strip()} would be empty. */
    public static boolean isBlank(String s) {
        return stripStart(s) == s.length();
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
        int n = 0;
        boolean inWord = false;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            boolean space = isSpace(c);
            if (!space && !inWord) {
                n++;
            }
            inWord = !space;
            i += Character.charCount(c);
        }
        return n;
    }

    /** {@code max(len(w) for w in s.split())}, 0 when there is no word. */
    public static int longestWord(String s) {
        int longest = 0;
        int current = 0;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            current = isSpace(c) ? 0 : current + 1;
            longest = Math.max(longest, current);
            i += Character.charCount(c);
        }
        return longest;
    }

    /** A line break for {@code splitlines()}: \n \r \v \f \x1c \x1d \x1e \x85 U+2028 U+2029. */
    public static boolean isLineBreak(char c) {
        return PyText.isLineBreak(c);
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
        for (int i = 0; i < w.length(); ) {
            int c = w.codePointAt(i);
            if (Character.isLetter(c)) {
                return true;
            }
            i += Character.charCount(c);
        }
        return false;
    }
}
