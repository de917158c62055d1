package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Drops documents whose text matches a regular expression (datatrove's RegexFilter), or with
 * {@code keep_matching: true} keeps only those that match. Java regex syntax, read the way Python's
 * {@code re} reads a str pattern, which datatrove uses: {@code \w}, {@code \d}, {@code \s} and {@code \b}
 * are Unicode-aware ("Привет", "٣٤٥") with Python's word characters, only "\n" ends a line for {@code .},
 * {@code ^} and {@code $}, and Python's {@code (?P<name>...)}, {@code (?P=name)} and {@code \Z} are taken for Java's ({@link #fromPython}).
 * Other syntax is Java's where the two differ (possessive quantifiers, {@code \p{...}} classes).
 */
public final class RegexFilter extends Filter {
    private final Pattern pattern;
    private final boolean keepMatching;

    public RegexFilter(StepArgs args) {
        super(args);
        String regex = args.requireString("regex");
        try {
            int flags = Pattern.UNICODE_CHARACTER_CLASS | Pattern.UNIX_LINES;
            pattern = Pattern.compile(fromPython(regex), args.bool("ignore_case", false) ? flags | Pattern.CASE_INSENSITIVE : flags);
        } catch (PatternSyntaxException e) {
            throw args.error("regex", "is not a valid regular expression: " + e.getDescription());
        }
        keepMatching = args.bool("keep_matching", false);
    }

    /** Python's {@code \\w} for a str pattern: letters and numbers of any script, and '_' (not Java's, which adds marks). */
    private static final String WORD = "\\p{L}\\p{N}_";
    private static final String WORD_BOUNDARY = "(?:(?<=[" + WORD + "])(?![" + WORD + "])|(?<![" + WORD + "])(?=[" + WORD + "]))";
    private static final String NOT_WORD_BOUNDARY = "(?:(?<=[" + WORD + "])(?=[" + WORD + "])|(?<![" + WORD + "])(?![" + WORD + "]))";

    /**
     * Python's spellings in Java's: {@code (?P<name>...)} as {@code (?<name>...)} and {@code (?P=name)} as
     * {@code \\k<name>}, with names Java accepts (letters and digits only: "first_name" becomes "g0firstname"),
     * {@code \\Z} (Python: the very end) as {@code \\z}; {@code \\w}, {@code \\W}, {@code \\b} and {@code \\B}
     * on Python's word characters ({@link #WORD}: Java's Unicode \\w also counts combining marks, and not "²");
     * inside a character class, {@code \\b} as backspace, and '[' and '&' as the literals they are in Python
     * (Java nests classes and reads "&&" as an intersection). Other escapes are copied as they are.
     */
    static String fromPython(String regex) {
        StringBuilder out = new StringBuilder(regex.length());
        java.util.Map<String, String> names = new java.util.HashMap<>();
        boolean inClass = false;
        int classStart = -1; // where the current class's members start: a ']' there is one of them
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                char next = regex.charAt(i + 1);
                out.append(switch (next) {
                    case 'w' -> inClass ? WORD : "[" + WORD + "]";
                    case 'W' -> "[^" + WORD + "]";
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

    /** A group name Java takes (ASCII letters and digits, a letter first) for Python's {@code name}, the n-th. */
    private static String javaName(String name, int n) {
        return name.matches("[a-zA-Z][a-zA-Z0-9]*") ? name : "g" + n + name.replaceAll("[^a-zA-Z0-9]", "");
    }

    @Override
    public Verdict filter(Document doc) {
        boolean found = pattern.matcher(doc.text()).find();
        if (found == keepMatching) {
            return Verdict.KEEP;
        }
        return Verdict.drop(keepMatching ? "regex_no_match" : "regex_match");
    }
}
