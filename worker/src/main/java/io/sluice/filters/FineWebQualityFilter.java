package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import java.util.ArrayList;
import java.util.List;

/**
 * FineWeb's custom rules (Penedo et al. 2024; datatrove's {@code FineWebQualityFilter}): few lines ending
 * in punctuation, many short lines, characters in duplicated lines, many newlines per word.
 *
 * <p>Lines are {@code text.split("\n")} without the whitespace-only ones; the others are NOT stripped
 * (so a line ending in ". " does not end in punctuation).
 *
 * <p>Keys (datatrove's names and defaults): {@code line_punct_thr} 0.12 (drop when the share of lines
 * ending in a stop character is below it), {@code line_punct_exclude_zero} false (true: a share of 0 is
 * not dropped), {@code stop_chars} (default datatrove's TERMINAL_PUNCTUATION, sentence-ending marks of
 * many scripts), {@code short_line_thr} 0.67, {@code short_line_length} 30 (code points),
 * {@code char_duplicates_ratio} 0.01, {@code new_line_ratio} 0.3.
 *
 * <p>Reasons: {@code empty}, {@code line_punct_ratio}, {@code short_line_ratio}, {@code char_dup_ratio},
 * {@code list_ratio}. Words are {@link EnglishText#words} (datatrove's spaCy tokens).
 * Deliberate difference: a text without
 * words (where datatrove divides by zero) is not dropped for {@code list_ratio}.
 */
public final class FineWebQualityFilter extends Filter {
    private final double linePunctThr;
    private final boolean linePunctExcludeZero;
    private final List<String> stopChars;
    private final double shortLineThr;
    private final long shortLineLength;
    private final double charDuplicatesRatio;
    private final double newLineRatio;

    public FineWebQualityFilter(StepArgs args) {
        super(args);
        EnglishText.requireEnglish(args);
        args.refuseNull(StepArgs.NUMBER_NOT_NULL, "line_punct_thr", "short_line_thr", "short_line_length", "char_duplicates_ratio", "new_line_ratio");
        linePunctThr = args.number("line_punct_thr", 0.12);
        linePunctExcludeZero = args.bool("line_punct_exclude_zero", false);
        stopChars = args.strings("stop_chars", null);
        shortLineThr = args.number("short_line_thr", 0.67);
        shortLineLength = args.integer("short_line_length", 30);
        charDuplicatesRatio = args.number("char_duplicates_ratio", 0.01);
        newLineRatio = args.number("new_line_ratio", 0.3);
    }

    @Override
    public Verdict filter(Document doc) {
        String text = doc.text();
        List<String> lines = new ArrayList<>();
        for (String line : PyText.split(text, '\n')) {
            if (!PyText.isBlank(line)) {
                lines.add(line);
            }
        }
        if (lines.isEmpty()) {
            return Verdict.drop("empty");
        }

        int punctuated = 0;
        int shortLines = 0;
        for (String line : lines) {
            if (endsWithStopChar(line)) {
                punctuated++;
            }
            if (line.length() <= shortLineLength || PyText.len(line) <= shortLineLength) {
                shortLines++;
            }
        }
        double ratio = (double) punctuated / lines.size();
        if (ratio < linePunctThr && !(ratio == 0 && linePunctExcludeZero)) {
            return Verdict.drop("line_punct_ratio");
        }
        if ((double) shortLines / lines.size() > shortLineThr) {
            return Verdict.drop("short_line_ratio");
        }

        long dupChars = GopherRepetitionFilter.duplicates(lines)[1];
        long nonNewlineChars = PyText.len(text) - PyText.count(text, '\n');
        if ((double) dupChars / nonNewlineChars > charDuplicatesRatio) {
            return Verdict.drop("char_dup_ratio");
        }

        int words = Words.count(text); // after c4_quality, counted from the words of the lines it kept
        if (words > 0 && (double) PyText.count(text, '\n') / words > newLineRatio) {
            return Verdict.drop("list_ratio");
        }
        return Verdict.KEEP;
    }

    private boolean endsWithStopChar(String line) {
        if (stopChars == null) {
            return Punctuation.endsWithTerminal(line);
        }
        for (String s : stopChars) {
            if (line.endsWith(s)) {
                return true;
            }
        }
        return false;
    }
}
