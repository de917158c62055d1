package io.sluice.formatters;

import io.sluice.filters.PythonRegex;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Formatter;
import io.sluice.text.PyText;
import io.sluice.text.TextNormalizer;

/**
 * Step {@code symbol_lines_formatter} (datatrove's {@code SymbolLinesFormatter}): removes the lines made only of
 * symbols, each run of such lines in a row (with the newline after each) giving way to one {@code replace_char}
 * (default "": the lines go; datatrove suggests "\n" to leave a paragraph break). A symbol line starts with a
 * character of datatrove's {@code PUNCTUATION} (its symbols, and the C0 and C1 controls but tab and newline, so
 * "\r" too: the empty lines of a text with "\r\n" line ends are symbol lines) and holds nothing but those and
 * spaces other than "\r" and "\n" (Python's {@code str.isspace}: tabs, no-break and ideographic spaces, U+001C..U+001F
 * too). A line that holds only spaces, or starts with one, stays; so does an empty line.
 *
 * <p>Python's {@code re} running datatrove's pattern, {@code ^(([P]+[^\S\r\n]*)+\n?)+$((?<!\n)\n)?} with P its
 * PUNCTUATION, in multi-line mode, matches just that: its {@code $} holds only at a line's end, so a match ends
 * after the last of the symbol lines in a row, with that line's newline. This class finds them in one pass over
 * the lines; Python gets there by backtracking, in time exponential in the symbols that start a line before
 * another character (a line of 18 dashes and a letter takes it half a minute, of 20 four minutes).
 * {@code replace_char} is read as {@code re.sub} reads a replacement: {@code \n}, {@code \t} and Python's
 * other escapes, octal escapes; a group reference is refused.
 * Counted: {@code lines_removed} (the symbol lines) and, by the base class, {@code formatted}.
 */
public final class SymbolLinesFormatter extends Formatter {
    /** A line may start with this character: one of datatrove's PUNCTUATION (all in the BMP). */
    private static final byte FIRST = 1;
    /** A symbol line may hold this character: one of PUNCTUATION, or a space other than "\r" and "\n". */
    private static final byte REST = 2;
    private static final byte[] CLASS = new byte[0x10000];

    static {
        for (int c = 0; c < 0x10000; c++) {
            if (PyText.isSpace(c) && c != '\r' && c != '\n') {
                CLASS[c] = REST;
            }
        }
        for (int i = 0; i < TextNormalizer.PUNCTUATION.length(); i++) {
            CLASS[TextNormalizer.PUNCTUATION.charAt(i)] = FIRST | REST;
        }
    }

    private final String replacement;

    public SymbolLinesFormatter(StepArgs args) {
        replacement = replacement(args, "replace_char");
    }

    @Override
    protected String format(String text) {
        int n = text.length();
        StringBuilder out = null;
        int copied = 0;
        long removed = 0;
        int line = 0;
        while (line < n) {
            int end = symbolLineEnd(text, line);
            if (end < 0) {
                int newline = text.indexOf('\n', line);
                if (newline < 0) {
                    break;
                }
                line = newline + 1;
                continue;
            }
            int start = line;
            removed++;
            // the lines that follow, while they are symbol lines too: one match of datatrove's pattern
            for (int next; end < n && (next = symbolLineEnd(text, end + 1)) >= 0; end = next) {
                removed++;
            }
            line = end < n ? end + 1 : n; // the last line's newline goes with it
            if (out == null) {
                out = new StringBuilder(n);
            }
            out.append(text, copied, start).append(replacement);
            copied = line;
        }
        if (out == null) {
            return text;
        }
        ctx.stats().add("lines_removed", removed);
        return out.append(text, copied, n).toString();
    }

    /** Where the line starting at {@code from} ends (its "\n", or the text's end) if it is a symbol line; else -1. */
    private static int symbolLineEnd(String text, int from) {
        int n = text.length();
        if (from >= n || (CLASS[text.charAt(from)] & FIRST) == 0) {
            return -1;
        }
        int i = from + 1;
        while (i < n && (CLASS[text.charAt(i)] & REST) != 0) {
            i++;
        }
        return i == n || text.charAt(i) == '\n' ? i : -1;
    }

    /**
     * The replacement as Python's {@code re.sub} reads {@code replace_char}: the escapes \a \b \f \n \r \t \v and
     * \\, octal escapes (\0, \012, \101), a backslash before any other character but an ASCII letter kept with
     * it; an ASCII letter after a backslash is an error there, and so is a group reference here.
     */
    private static String replacement(StepArgs args, String key) {
        String s = args.string(key, "");
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i == s.length()) {
                throw args.error(key, "ends with a lone backslash, which Python's re.sub refuses (write \\\\ for one)");
            }
            char e = s.charAt(i);
            int octal = PythonRegex.octalLength(s, i);
            if (octal > 0) {
                out.append((char) Integer.parseInt(s.substring(i, i + octal), 8));
                i += octal - 1;
            } else if (e == 'g' || e >= '0' && e <= '9') {
                throw args.error(key, "holds a group reference (\\" + e
                        + "), which symbol_lines_formatter does not take");
            } else if ("abfnrtv\\".indexOf(e) >= 0) {
                out.append("\u0007\b\f\n\r\t\u000b\\".charAt("abfnrtv\\".indexOf(e)));
            } else if (e < 128 && Character.isLetter(e)) {
                throw args.error(key, "holds the escape \\" + e + ", which Python's re.sub refuses (bad escape)");
            } else {
                out.append(c).append(e);
            }
        }
        return out.toString();
    }
}
