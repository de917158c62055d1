package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import io.sluice.text.WordSet;
import io.sluice.text.WordSpans;
import java.util.List;

/**
 * Gopher's quality rules (Rae et al. 2021, datatrove's {@code GopherQualityFilter}): document length in
 * words, mean word length, '#' and ellipsis per word, bullet and ellipsis lines, words with letters,
 * stop words. Checks run in datatrove's order and the first failing one is the reason.
 *
 * <p>Keys (datatrove's names and defaults; {@code null} turns a check off): {@code min_doc_words} 50,
 * {@code max_doc_words} 100000, {@code min_avg_word_length} 3, {@code max_avg_word_length} 10,
 * {@code max_symbol_word_ratio} 0.1, {@code max_bullet_lines_ratio} 0.9, {@code max_ellipsis_lines_ratio}
 * 0.3, {@code max_non_alpha_words_ratio} 0.8, {@code min_stop_words} 2, {@code stop_words}
 * [the, be, to, of, and, that, have, with].
 *
 * <p>Reasons: {@code gopher_short_doc}, {@code gopher_long_doc}, {@code gopher_below_avg_threshold},
 * {@code gopher_above_avg_threshold}, {@code gopher_too_many_hashes}, {@code gopher_too_many_ellipsis},
 * {@code gopher_too_many_bullets}, {@code gopher_too_many_end_ellipsis}, {@code gopher_below_alpha_threshold},
 * {@code gopher_enough_stop_words} (which means NOT enough stop words).
 *
 * <p>Words are {@link EnglishText#words} (datatrove's spaCy tokens). Deliberate difference: where
 * datatrove would divide by zero (only reachable with {@code min_doc_words} off and a text without tokens or lines) the ratio is 0.
 */
public final class GopherQualityFilter extends Filter {
    static final List<String> STOP_WORDS = List.of("the", "be", "to", "of", "and", "that", "have", "with");

    private final Long minDocWords;
    private final Long maxDocWords;
    private final Double minAvgWordLength;
    private final Double maxAvgWordLength;
    private final Double maxSymbolWordRatio;
    private final Double maxBulletLinesRatio;
    private final Double maxEllipsisLinesRatio;
    private final Double maxNonAlphaWordsRatio;
    private final Long minStopWords;
    private final WordSet stopWords;

    public GopherQualityFilter(StepArgs args) {
        super(args);
        EnglishText.requireEnglish(args);
        minDocWords = Thresholds.integer(args, "min_doc_words", 50);
        maxDocWords = Thresholds.integer(args, "max_doc_words", 100_000);
        minAvgWordLength = Thresholds.number(args, "min_avg_word_length", 3);
        maxAvgWordLength = Thresholds.number(args, "max_avg_word_length", 10);
        maxSymbolWordRatio = Thresholds.number(args, "max_symbol_word_ratio", 0.1);
        maxBulletLinesRatio = Thresholds.number(args, "max_bullet_lines_ratio", 0.9);
        maxEllipsisLinesRatio = Thresholds.number(args, "max_ellipsis_lines_ratio", 0.3);
        maxNonAlphaWordsRatio = Thresholds.number(args, "max_non_alpha_words_ratio", 0.8);
        minStopWords = Thresholds.integer(args, "min_stop_words", 2);
        stopWords = new WordSet(args.words("stop_words", STOP_WORDS, "the set of its letters"));
    }

    @Override
    public Verdict filter(Document doc) {
        String text = doc.text();
        WordSpans words = Words.of(text);
        int nWords = words.size();

        // "non-symbol" words: tokens with at least one character outside datatrove's PUNCTUATION_SET; and,
        // for a later test, the words with a letter. Most words start with an ASCII letter, which answers both.
        long nonSymbolWords = 0;
        long nonSymbolChars = 0;
        int withLetter = 0;
        for (int i = 0; i < nWords; i++) {
            int start = words.start(i);
            int end = words.end(i);
            char first = text.charAt(start);
            boolean asciiLetter = (first | 0x20) >= 'a' && (first | 0x20) <= 'z';
            if (asciiLetter || !Punctuation.isSymbolToken(text, start, end)) {
                nonSymbolWords++;
                nonSymbolChars += text.codePointCount(start, end);
            }
            if (asciiLetter || PyText.hasLetter(text, start, end)) {
                withLetter++;
            }
        }
        if (minDocWords != null && nonSymbolWords < minDocWords) {
            return Verdict.drop("gopher_short_doc");
        }
        if (maxDocWords != null && nonSymbolWords > maxDocWords) {
            return Verdict.drop("gopher_long_doc");
        }

        // numpy's mean of integers: exact sum, one division; NaN (no words) fails no test
        double avgWordLength = nonSymbolWords == 0 ? Double.NaN : (double) nonSymbolChars / nonSymbolWords;
        if (minAvgWordLength != null && avgWordLength < minAvgWordLength) {
            return Verdict.drop("gopher_below_avg_threshold");
        }
        if (maxAvgWordLength != null && avgWordLength > maxAvgWordLength) {
            return Verdict.drop("gopher_above_avg_threshold");
        }

        // '#' and ellipses per token (all tokens, symbols included)
        if (maxSymbolWordRatio != null) {
            if (Thresholds.ratio(PyText.count(text, '#'), nWords) > maxSymbolWordRatio) {
                return Verdict.drop("gopher_too_many_hashes");
            }
            int ellipses = PyText.count(text, "...") + PyText.count(text, '\u2026');
            if (Thresholds.ratio(ellipses, nWords) > maxSymbolWordRatio) {
                return Verdict.drop("gopher_too_many_ellipsis");
            }
        }

        if (maxBulletLinesRatio != null || maxEllipsisLinesRatio != null) {
            LineCounts lines = LineCounts.of(text);
            if (maxBulletLinesRatio != null && Thresholds.ratio(lines.bullets, lines.lines) > maxBulletLinesRatio) {
                return Verdict.drop("gopher_too_many_bullets");
            }
            if (maxEllipsisLinesRatio != null
                    && Thresholds.ratio(lines.endEllipsis, lines.lines) > maxEllipsisLinesRatio) {
                return Verdict.drop("gopher_too_many_end_ellipsis");
            }
        }

        if (maxNonAlphaWordsRatio != null) {
            if (Thresholds.ratio(withLetter, nWords) < maxNonAlphaWordsRatio) {
                return Verdict.drop("gopher_below_alpha_threshold");
            }
        }

        if (minStopWords != null) {
            boolean[] seen = new boolean[stopWords.size()];
            int found = 0;
            for (int i = 0; i < nWords && found < minStopWords; i++) {
                int k = stopWords.indexOf(text, words.start(i), words.end(i));
                if (k >= 0 && !seen[k]) {
                    seen[k] = true;
                    found++;
                }
            }
            if (found < minStopWords) {
                return Verdict.drop("gopher_enough_stop_words");
            }
        }
        return Verdict.KEEP;
    }

    /**
     * Over the lines of {@code splitlines()}: how many there are, how many start with a bullet after
     * {@code lstrip()} and how many end with an ellipsis after {@code rstrip()}. Counted on line spans
     * of the text, as building every line as a String cost more than the checks.
     */
    record LineCounts(int lines, int bullets, int endEllipsis) {
        /**
         * Lines are found with {@code indexOf}, a vectorised intrinsic, one per kind of break the text
         * holds (usually "\n" alone, or with "\r"), and only their ends are read: a char-by-char scan
         * testing every kind of break cost more than the rest of the Gopher quality rules, and C2
         * compiled it again and again after branches the first documents never took. "\r\n" is one
         * break; a break at the very end gives no empty last line.
         */
        static LineCounts of(String text) {
            int n = text.length();
            String breaks = PyText.LINE_BREAKS;
            char[] kinds = new char[breaks.length()];
            int[] next = new int[breaks.length()]; // the next break of each kind, n when none is left
            int kindCount = 0;
            for (int k = 0; k < breaks.length(); k++) {
                char c = breaks.charAt(k);
                int at = text.indexOf(c);
                if (at >= 0) {
                    kinds[kindCount] = c;
                    next[kindCount++] = at;
                }
            }
            int lines = 0;
            int bullets = 0;
            int endEllipsis = 0;
            int start = 0;
            while (start < n) {
                int end = n;
                for (int k = 0; k < kindCount; k++) {
                    end = Math.min(end, next[k]);
                }
                lines++;
                bullets += startsWithBullet(text, start, end) ? 1 : 0;
                endEllipsis += endsWithEllipsis(text, start, end) ? 1 : 0;
                if (end == n) {
                    break;
                }
                start = end + (text.charAt(end) == '\r' && end + 1 < n && text.charAt(end + 1) == '\n' ? 2 : 1);
                for (int k = 0; k < kindCount; k++) {
                    if (next[k] < start) {
                        int at = text.indexOf(kinds[k], start);
                        next[k] = at < 0 ? n : at;
                    }
                }
            }
            return new LineCounts(lines, bullets, endEllipsis);
        }

        // Python whitespace is all in the BMP, so stripping by UTF-16 unit equals strip by code point.
        private static boolean startsWithBullet(String text, int start, int end) {
            int first = start;
            while (first < end && PyText.isSpace(text.charAt(first))) {
                first++;
            }
            return first < end && (text.charAt(first) == '\u2022' || text.charAt(first) == '-');
        }

        private static boolean endsWithEllipsis(String text, int start, int end) {
            int last = end;
            while (last > start && PyText.isSpace(text.charAt(last - 1))) {
                last--;
            }
            return last > start && (text.charAt(last - 1) == '\u2026'
                    || (last - start >= 3 && text.startsWith("...", last - 3)));
        }
    }
}
