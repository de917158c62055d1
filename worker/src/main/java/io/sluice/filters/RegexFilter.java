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
 * {@code ^} and {@code $}, and Python's {@code (?P<name>...)}, {@code (?P=name)}, {@code \Z} and the like are
 * taken for Java's ({@link PythonRegex}). A pattern Python's {@code re} refuses is refused, with Python's message
 * ("bad escape \z at position 3"), as datatrove fails at start-up ({@link PythonRegexCheck}); so is one of the few
 * Python constructs Java's engine has none of (conditional groups), with a message saying so.
 */
public final class RegexFilter extends Filter {
    private final Pattern pattern;
    private final boolean keepMatching;

    public RegexFilter(StepArgs args) {
        super(args);
        if ("".equals(args.raw().get("regex"))) {
            // not "is required": the key is there; an empty pattern matches every text
            throw args.error("regex", "is empty, which matches every document (datatrove's regex_filter drops them"
                    + " all); give a pattern");
        }
        String regex = args.requireString("regex");
        PythonRegexCheck.Result python = PythonRegexCheck.check(regex);
        if (python.refusal() != null) {
            throw args.error("regex", "is not a valid Python regular expression (datatrove's re.compile refuses it): "
                    + python.refusal());
        }
        if (python.unsupported() != null) {
            throw args.error("regex", "cannot be run by Sluice: " + python.unsupported());
        }
        try {
            int flags = Pattern.UNICODE_CHARACTER_CLASS | Pattern.UNIX_LINES;
            pattern = Pattern.compile(PythonRegex.toJava(regex), args.bool("ignore_case", false) ? flags | Pattern.CASE_INSENSITIVE : flags);
        } catch (PatternSyntaxException e) {
            throw args.error("regex", "is refused by Java's regex engine, which Sluice runs it with: " + e.getDescription());
        }
        keepMatching = args.bool("keep_matching", false);
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
