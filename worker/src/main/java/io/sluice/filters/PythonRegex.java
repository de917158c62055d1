package io.sluice.filters;

import java.util.regex.Pattern;

/**
 * A Python {@code re} pattern (a str pattern, as datatrove's RegexFilter compiles it) as a Java pattern that
 * matches the same, to be compiled with {@link Pattern#UNICODE_CHARACTER_CLASS} and {@link Pattern#UNIX_LINES}
 * (only "\n" ends a line). Checked against Python by differential fuzzing (2.4 million pairs). A pattern
 * Python 3.11 refuses ({@code \z}, {@code \p{L}}, a look-behind of no fixed width, {@code (?<name>...)},
 * {@code a**}, {@code (?i)} after the start) never gets here: {@link PythonRegexCheck} refuses the job file with
 * Python's message, as datatrove fails at start-up (checked against Python 3.11 on 300,000 patterns a round).
 *
 * <p>What still differs: a few patterns Python takes are refused, with a message saying why: conditional groups
 * {@code (?(1)a|b)}, the ASCII-only flag {@code (?a)}, a group reference in a look-behind, {@code \N{...}} with
 * a name Java does not know (Python also takes aliases such as "LINE FEED" and the Hangul and CJK names made of
 * parts), repeat counts over 2147483647, and groups nested so deep that Java's engine overflows its stack; a
 * repetition such as {@code (a|b)*} over a megabyte of text overflows the stack (Java's engine recurses); and
 * Python 3.11's {@code \B} does not match an empty text. Python refuses a few patterns that run here: a
 * {@code \N{...}} name added to Unicode after Python 3.11's Unicode 14, and groups nested nearly 495 deep (see
 * {@link PythonRegexCheck}).
 */
public final class PythonRegex {
    private PythonRegex() {
    }

    /*
     * Python's classes for a str pattern. \w: letters and numbers of any script, and '_' (Java's Unicode \w adds
     * combining marks, and not "²"); \s: str.isspace (Java's White_Space lacks U+001C-U+001F); \d: Nd, as Java's.
     * Each holds a supplementary character it already means (U+10000, a letter; U+1D7CE, a digit) or leaves out
     * (a space): a class holding one reads whole code points in a lookbehind, where Java otherwise saw the low
     * half of a pair ("(?<=\w)x" missed "𠀀x", and \b around such a character was wrong).
     */
    private static final String WORD_CHARS = "\\p{L}\\p{N}_\uD800\uDC00";
    private static final String WORD = "[" + WORD_CHARS + "]";
    private static final String NOT_WORD = "[^" + WORD_CHARS + "]";
    private static final String SPACE = "[\\s\\x1c-\\x1f&&[^\uD800\uDC00]]";
    private static final String NOT_SPACE = "[[^\\s\\x1c-\\x1f]\uD800\uDC00]";
    private static final String DIGIT = "[\\d\uD835\uDFCE]";
    private static final String NOT_DIGIT = "[^\\d\uD835\uDFCE]";
    private static final String WORD_BOUNDARY = "(?:(?<=" + WORD + ")(?!" + WORD + ")|(?<!" + WORD + ")(?=" + WORD + "))";
    private static final String NOT_WORD_BOUNDARY = "(?:(?<=" + WORD + ")(?=" + WORD + ")|(?<!" + WORD + ")(?!" + WORD + "))";
    private static final Pattern GLOBAL_FLAGS = Pattern.compile("\\(\\?([aiLmsux]+)\\)");
    private static final Pattern QUANTIFIER = Pattern.compile("\\{(\\d*)(,(\\d*))?}");

    /**
     * {@code regex}, a Python pattern, in Java's spelling: {@code (?P<name>...)} as {@code (?<name>...)} and {@code (?P=name)} as
     * {@code \\k<name>}, with names Java accepts (letters and digits only: "first_name" becomes "g0firstname"),
     * {@code \\Z} (Python: the very end) as {@code \\z}; {@code \\w}, {@code \\W}, {@code \\b} and {@code \\B}
     * on Python's word characters, {@code \\s} and {@code \\S} on Python's spaces (see {@link #WORD}), {@code \\d}
     * and {@code \\D} read in lookbehinds by code point; {@code \\v} as the vertical tab, octal escapes
     * ({@code \\0}, {@code \\012}, {@code \\377}; in a class {@code \\1} too), {@code \\U0001F600} and
     * {@code \\N{EM DASH}} as the characters they are; comments
     * {@code (?#...)} left out; a '{' that starts no quantifier as a literal, as Python reads it ("{{.*}}", "\\s*{"),
     * and {@code {,n}} as {@code {0,n}}; after a leading {@code (?m)}, {@code ^} also at the end after a final
     * newline and in an empty text; inside a character class, spaces and '#' as members even under {@code (?x)}, {@code \\b} as backspace, and '[', '&' and a
     * leading ']' as the literals they are in Python (Java nests classes and reads "&&" as an intersection).
     * Other escapes are copied as they are. {@code regex} is one Python compiles ({@link PythonRegexCheck}).
     */
    static String toJava(String regex) {
        StringBuilder out = new StringBuilder(regex.length() + 16);
        java.util.Map<String, String> names = new java.util.HashMap<>();
        boolean inClass = false;
        int classStart = -1; // where the current class's members start: a ']' there is one of them
        // with a leading (?m), Python's ^ also matches at the very end after a final "\n" or of an empty text;
        // Java's does not
        java.util.regex.Matcher flags = GLOBAL_FLAGS.matcher(regex);
        boolean multiline = flags.lookingAt() && flags.group(1).indexOf('m') >= 0;
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                char next = regex.charAt(i + 1);
                int octal = octalLength(regex, i + 1, inClass);
                if (octal > 0) {
                    out.append(String.format("\\x{%x}", Integer.parseInt(regex.substring(i + 1, i + 1 + octal), 8)));
                    i += 1 + octal;
                    continue;
                }
                if (next == 'U' && i + 10 <= regex.length() && regex.substring(i + 2, i + 10).matches("[0-9a-fA-F]{8}")) {
                    out.append(character(Integer.parseInt(regex.substring(i + 2, i + 10), 16)));
                    i += 10;
                    continue;
                }
                int named = next == 'N' && regex.startsWith("{", i + 2) && regex.indexOf('}', i) > 0
                        ? PythonRegexCheck.characterNamed(regex.substring(i + 3, regex.indexOf('}', i))) : -1;
                if (named >= 0) { // Java's \N{...} takes names Python does not
                    out.append(character(named));
                    i = regex.indexOf('}', i) + 1;
                    continue;
                }
                out.append(switch (next) {
                    case 'w' -> inClass ? WORD_CHARS : WORD;
                    case 'W' -> NOT_WORD;
                    case 's' -> SPACE;
                    case 'S' -> NOT_SPACE;
                    case 'd' -> DIGIT;
                    case 'D' -> NOT_DIGIT;
                    case 'v' -> "\\x0b";
                    case 'b' -> inClass ? "\\x08" : WORD_BOUNDARY;
                    case 'B' -> inClass ? "\\B" : NOT_WORD_BOUNDARY;
                    case 'Z' -> inClass ? "\\Z" : "\\z";
                    default -> "\\" + next;
                });
                i += 2;
            } else if (inClass) {
                if (c == ']' && i > classStart) {
                    inClass = false;
                    out.append(c);
                } else if (c == '#' || Character.isWhitespace(c)) {
                    out.append(String.format("\\x{%x}", (int) c)); // members even under (?x), as in Python
                } else {
                    out.append(c == '[' || c == '&' || c == ']' ? "\\" + c : String.valueOf(c));
                }
                i++;
            } else if (c == '[') {
                inClass = true;
                out.append(c);
                i++;
                if (i < regex.length() && regex.charAt(i) == '^') {
                    out.append('^');
                    i++;
                }
                classStart = i;
            } else if (c == '^' && multiline) {
                out.append("(?:^|(?<![^\\n])\\z)"); // at the end after "\n" or of an empty text, where Java's ^ is not
                i++;
            } else if (c == '{') {
                java.util.regex.Matcher q = QUANTIFIER.matcher(regex).region(i, regex.length());
                if (!q.lookingAt() || q.end() == i + 2) { // "{}" is a literal too
                    out.append("\\{");
                    i++;
                } else {
                    String min = q.group(1).isEmpty() ? "0" : q.group(1);
                    out.append('{').append(min).append(q.group(2) == null ? "" : "," + q.group(3)).append('}');
                    i = q.end();
                }
            } else if (regex.startsWith("(?#", i) && regex.indexOf(')', i) > 0) {
                i = regex.indexOf(')', i) + 1;
            } else if (regex.startsWith("(?P<", i) && regex.indexOf('>', i) > 0) {
                int close = regex.indexOf('>', i);
                String name = regex.substring(i + 4, close);
                out.append("(?<").append(names.computeIfAbsent(name, n -> javaName(n, names.size()))).append('>');
                i = close + 1;
            } else if (regex.startsWith("(?P=", i) && regex.indexOf(')', i) > 0) {
                int close = regex.indexOf(')', i);
                String name = regex.substring(i + 4, close);
                out.append("\\k<").append(names.getOrDefault(name, name)).append('>');
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * How many characters from {@code at} (just after a backslash) Python reads as an octal escape: "0" and up
     * to two more octal digits, or three octal digits (else one or two digits are a group reference), and in a
     * class one to three octal digits; 0 if none. A replacement of {@code re.sub} reads its octal escapes as a
     * pattern does outside a class.
     */
    public static int octalLength(String regex, int at) {
        return octalLength(regex, at, false);
    }

    private static int octalLength(String regex, int at, boolean inClass) {
        int n = 0;
        while (n < 3 && at + n < regex.length() && regex.charAt(at + n) >= '0' && regex.charAt(at + n) <= '7') {
            n++;
        }
        if (n > 0 && (inClass || regex.charAt(at) == '0')) {
            return n;
        }
        return n == 3 && Integer.parseInt(regex.substring(at, at + 3), 8) <= 0377 ? 3 : 0;
    }

    /**
     * The character {@code c} for Java: a supplementary one as itself, since Java's {@code \x{...}} for one
     * does not match in a look-behind ("(?<=\x{1F600})" found nothing after U+1F600).
     */
    private static String character(int c) {
        return c > 0xFFFF ? Character.toString(c) : String.format("\\x{%x}", c);
    }

    /** A group name Java takes (ASCII letters and digits, a letter first) for Python's {@code name}, the n-th. */
    private static String javaName(String name, int n) {
        return name.matches("[a-zA-Z][a-zA-Z0-9]*") ? name : "g" + n + name.replaceAll("[^a-zA-Z0-9]", "");
    }
}
