package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import io.sluice.text.WordSpans;
import java.util.List;
import java.util.regex.Pattern;

/**
 * C4's line and page rules (Raffel et al. 2020; datatrove's {@code C4QualityFilter}). It REWRITES the
 * text: only the lines that pass are kept, joined with {@code \n}.
 *
 * <p>Per line (Python {@code splitlines()}, each line stripped), in this order: drop the line if a
 * whitespace-separated word is longer than {@code max_word_length}; remove citation marks
 * ({@code [1]}, {@code [edit]}, {@code [citation needed]}, not re-stripped); drop the line unless it ends
 * with {@code . ? ! " '} and not with {@code ...}; drop it with fewer than {@code min_words_per_line}
 * words (counted before citation removal); drop the DOCUMENT if it contains "lorem ipsum"; drop the line
 * if it contains "javascript"; drop the DOCUMENT if it contains "{"; drop the line if it contains a
 * cookie or terms-of-use phrase. Each kept line adds its number of sentences; fewer than
 * {@code min_num_sentences} drops the document.
 *
 * <p>Keys (datatrove's names and defaults): {@code split_paragraph} true (false: the units are
 * sentences of the whole text instead of lines, joined with a space), {@code remove_citations} true,
 * {@code filter_no_terminal_punct} true, {@code min_num_sentences} 5, {@code min_words_per_line} 3,
 * {@code max_word_length} 1000 (-1 turns the last three off), {@code filter_lorem_ipsum} true,
 * {@code filter_javascript} true, {@code filter_curly_bracket} true, {@code filter_policy} true.
 *
 * <p>Reasons: {@code lorem_ipsum}, {@code curly_bracket}, {@code too_few_sentences}. Sentences are
 * {@link EnglishText#sentences} (datatrove's spaCy sentencizer). Deliberate difference: datatrove's per-line counters
 * ({@code line-total}, {@code line-filter-*}, {@code line-kept}) are not kept.
 */
public final class C4QualityFilter extends Filter {
    // Python's \d in a str pattern is any Unicode decimal digit
    private static final Pattern CITATION = Pattern.compile("\\[\\p{Nd}*]|\\[edit]|\\[citation needed]");
    private static final List<String> POLICY_PHRASES = List.of("terms of use", "privacy policy", "cookie policy",
            "uses cookies", "use of cookies", "use cookies");

    private final boolean splitParagraph;
    private final boolean removeCitations;
    private final boolean filterNoTerminalPunct;
    private final long minNumSentences;
    private final long minWordsPerLine;
    private final long maxWordLength;
    private final boolean filterLoremIpsum;
    private final boolean filterJavascript;
    private final boolean filterCurlyBracket;
    private final boolean filterPolicy;
    /**
     * datatrove's line counters, in its names: every line looked at, the lines each rule removed, the lines
     * kept (lines of documents dropped later, for lorem ipsum or a curly bracket, counted as far as they got).
     * Summed here and added to the step's stats at the end of the rank.
     */
    private long lineTotal;
    private long lineTooLongWord;
    private long lineNoTerminalPunct;
    private long lineTooFewWords;
    private long lineJavascript;
    private long linePolicy;
    private long lineKept;

    public C4QualityFilter(StepArgs args) {
        super(args);
        EnglishText.requireEnglish(args);
        args.refuseNull(StepArgs.NUMBER_NOT_NULL, "min_num_sentences", "min_words_per_line", "max_word_length");
        splitParagraph = args.bool("split_paragraph", true);
        removeCitations = args.bool("remove_citations", true);
        filterNoTerminalPunct = args.bool("filter_no_terminal_punct", true);
        minNumSentences = args.integer("min_num_sentences", 5);
        minWordsPerLine = args.integer("min_words_per_line", 3);
        maxWordLength = args.integer("max_word_length", 1000);
        filterLoremIpsum = args.bool("filter_lorem_ipsum", true);
        filterJavascript = args.bool("filter_javascript", true);
        filterCurlyBracket = args.bool("filter_curly_bracket", true);
        filterPolicy = args.bool("filter_policy", true);
    }

    @Override
    public Verdict filter(Document doc) {
        String text = doc.text();
        List<String> units = splitParagraph ? PyText.splitLines(text) : EnglishText.sentences(text);
        long sentences = 0;
        StringBuilder kept = new StringBuilder();
        int keptLines = 0;
        // The words of the text, if an earlier filter tokenized it: the kept lines' words are then counted
        // for fineweb_quality, which would otherwise tokenize the rewritten text again. Exact because words
        // never span whitespace, so never a line break (spaCy cuts the text at whitespace first and none of
        // its multi-token special cases holds whitespace): a kept line is a stripped original line, whose
        // words are the original's words inside it. Unknown once a kept line lost a citation mark.
        WordSpans originalWords = splitParagraph ? Words.peek(text) : null;
        boolean countKnown = originalWords != null;
        int keptWordCount = 0;
        int unitEnd = 0;
        for (String unit : units) {
            int unitStart = unitEnd;
            unitEnd = afterLineBreak(text, unitStart + unit.length());
            String line = PyText.strip(unit);
            int lineStart = unitStart + leadingSpaces(unit);
            lineTotal++;
            if (maxWordLength != -1 && PyText.hasWordLongerThan(line, maxWordLength)) {
                lineTooLongWord++;
                continue;
            }
            boolean edited = false;
            if (removeCitations && line.indexOf('[') >= 0) {
                String cleaned = CITATION.matcher(line).replaceAll("");
                edited = cleaned.length() != line.length();
                line = cleaned;
            }
            if (filterNoTerminalPunct && (!endsWithEndPunctuation(line) || line.endsWith("..."))) {
                lineNoTerminalPunct++;
                continue;
            }
            // words are counted before the citations were removed, as datatrove does
            if (PyText.countWords(unit, minWordsPerLine) < minWordsPerLine) {
                lineTooFewWords++;
                continue;
            }
            String lower = PyText.lower(line);
            if (filterLoremIpsum && lower.contains("lorem ipsum")) {
                return Verdict.drop("lorem_ipsum");
            }
            if (filterJavascript && lower.contains("javascript")) {
                lineJavascript++;
                continue;
            }
            if (filterCurlyBracket && line.indexOf('{') >= 0) {
                return Verdict.drop("curly_bracket");
            }
            if (filterPolicy && containsPolicyPhrase(lower)) {
                linePolicy++;
                continue;
            }
            // The count only meets min_num_sentences, so once it is reached no more lines need tokenizing.
            if (sentences < minNumSentences) {
                sentences += splitParagraph ? EnglishText.sentences(line).size() : 1;
            }
            if (keptLines++ > 0) {
                kept.append(splitParagraph ? '\n' : ' ');
            }
            kept.append(line);
            lineKept++;
            countKnown &= !edited;
            if (countKnown) {
                keptWordCount += originalWords.countIn(lineStart, lineStart + line.length());
            }
        }
        if (sentences < minNumSentences) {
            return Verdict.drop("too_few_sentences");
        }
        doc.setText(PyText.strip(kept.toString()));
        if (doc.text() != text && countKnown) {
            Words.rememberCount(doc.text(), keptWordCount);
        }
        return Verdict.KEEP;
    }

    @Override
    public void finish(io.sluice.pipeline.DocumentSink next) throws java.io.IOException {
        String[] names = {"line-total", "line-filter-too_long_word", "line-filter-no_terminal_punc",
            "line-filter-too_few_words", "line-filter-javascript", "line-filter-policy", "line-kept"};
        long[] counts = {lineTotal, lineTooLongWord, lineNoTerminalPunct, lineTooFewWords, lineJavascript, linePolicy, lineKept};
        for (int i = 0; i < names.length; i++) {
            if (counts[i] > 0) { // as datatrove, which counts a name only when it happens
                ctx.stats().add(names[i], counts[i]);
            }
        }
        super.finish(next);
    }

    /** Where the next line of {@code splitlines()} starts, given where this one's text ends. */
    private static int afterLineBreak(String text, int end) {
        if (end >= text.length()) {
            return end;
        }
        return end + (text.charAt(end) == '\r' && end + 1 < text.length() && text.charAt(end + 1) == '\n' ? 2 : 1);
    }

    private static int leadingSpaces(String s) {
        int i = 0;
        while (i < s.length() && PyText.isSpace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean endsWithEndPunctuation(String line) {
        if (line.isEmpty()) {
            return false;
        }
        char c = line.charAt(line.length() - 1);
        return c == '.' || c == '?' || c == '!' || c == '"' || c == '\'';
    }

    private static boolean containsPolicyPhrase(String lower) {
        for (String p : POLICY_PHRASES) {
            if (lower.contains(p)) {
                return true;
            }
        }
        return false;
    }
}
