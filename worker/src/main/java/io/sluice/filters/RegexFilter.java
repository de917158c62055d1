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
 * Python's named groups {@code (?P<name>...)} and {@code (?P=name)} are taken for Java's.
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

    private static final Pattern PY_GROUP = Pattern.compile("(?<!\\\\)\\(\\?P<");
    private static final Pattern PY_BACKREF = Pattern.compile("(?<!\\\\)\\(\\?P=(\\w+)\\)");

    /** Python's named-group syntax in Java's: (?P<n>...) is (?<n>...), (?P=n) is \k<n>. */
    static String fromPython(String regex) {
        String s = PY_GROUP.matcher(regex).replaceAll("(?<");
        return PY_BACKREF.matcher(s).replaceAll("\\\\k<$1>");
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
