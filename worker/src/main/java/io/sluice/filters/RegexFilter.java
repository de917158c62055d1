package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Drops documents whose text matches a regular expression (datatrove's RegexFilter), or with
 * {@code keep_matching: true} keeps only those that match. Java regex syntax.
 */
public final class RegexFilter extends Filter {
    private final Pattern pattern;
    private final boolean keepMatching;

    public RegexFilter(StepArgs args) {
        super(args);
        String regex = args.requireString("regex");
        try {
            pattern = Pattern.compile(regex, args.bool("ignore_case", false) ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException e) {
            throw args.error("regex", "is not a valid regular expression: " + e.getDescription());
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
