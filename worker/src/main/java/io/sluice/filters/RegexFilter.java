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
 * are Unicode-aware ("Привет", "٣٤٥"), only "\n" ends a line for {@code .}, {@code ^} and {@code $}, and
 * Python's {@code (?P<name>...)}, {@code (?P=name)} and {@code \Z} are taken for Java's ({@link #fromPython}).
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

    /**
     * Python's spellings in Java's: {@code (?P<name>...)} as {@code (?<name>...)} and {@code (?P=name)} as
     * {@code \\k<name>}, with names Java accepts (letters and digits only: "first_name" becomes "g0firstname"),
     * and {@code \\Z} (Python: the very end) as {@code \\z}. Escaped characters are copied as they are.
     */
    static String fromPython(String regex) {
        StringBuilder out = new StringBuilder(regex.length());
        java.util.Map<String, String> names = new java.util.HashMap<>();
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                char next = regex.charAt(i + 1);
                out.append('\\').append(next == 'Z' ? 'z' : next);
                i += 2;
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
