package io.sluice.stats;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line per stat of the five blocks saying what its value is for a document, for the report: its reader
 * should not need datatrove's source to tell {@code line_char_duplicates} from {@code line_duplicates}.
 * Lengths are in characters (code points).
 */
final class MetricDescriptions {
    private MetricDescriptions() {
    }

    private static final Map<String, String> FIXED = Map.ofEntries(
            Map.entry("length", "characters in the document"),
            Map.entry("white_space_ratio", "share of the characters that are whitespace"),
            Map.entry("non_alpha_digit_ratio", "share of the characters that are neither letters nor digits"),
            Map.entry("digit_ratio", "share of the characters that are digits"),
            Map.entry("uppercase_ratio", "share of the characters that are upper-case letters"),
            Map.entry("elipsis_ratio", "share of the characters in \"...\" and \"…\""),
            Map.entry("punctuation_ratio", "share of the characters that are punctuation or symbols"),
            Map.entry("n_words", "words in the document (spaCy's English tokens, punctuation included)"),
            Map.entry("avg_word_length", "mean characters per word"),
            Map.entry("avg_words_per_line", "words per line"),
            Map.entry("type_token_ratio", "distinct words over words"),
            Map.entry("uppercase_word_ratio", "share of the words in upper case (\"NASA\")"),
            Map.entry("capitalized_word_ratio", "share of the words in title case (\"Paris\")"),
            Map.entry("stop_word_ratio", "share of the words that are stop words (by default the, be, to, of, and, that, have, with)"),
            Map.entry("n_lines", "lines (split at \"\\n\")"),
            Map.entry("avg_line_length", "mean characters per line"),
            Map.entry("lines_ending_with_terminal_mark_ratio", "share of the lines ending in . ? ! \" or '"),
            Map.entry("bullet_point_lines_ratio", "share of the lines starting with a bullet (- * •)"),
            Map.entry("line_duplicates", "share of the lines that repeat an earlier line of the document"),
            Map.entry("line_char_duplicates", "share of the characters in lines that repeat an earlier line"),
            Map.entry("n_paragraphs", "paragraphs (split at \"\\n\\n\")"),
            Map.entry("avg_paragraph_length", "mean characters per paragraph"),
            Map.entry("paragraph_duplicates", "share of the paragraphs that repeat an earlier paragraph of the document"),
            Map.entry("paragraph_char_duplicates", "share of the characters in paragraphs that repeat an earlier one"),
            Map.entry("n_sentences", "sentences (spaCy's English sentencizer)"),
            Map.entry("avg_sentence_length", "mean characters per sentence"));

    /** {@code short_word_ratio_3}, {@code long_line_ratio_chars_10000}, ...: the unit and the threshold. */
    private static final Pattern THRESHOLD = Pattern.compile("(short|long)_(word|line|paragraph|sentence)_ratio_(?:chars_)?(\\d+)");

    /**
     * The block that writes {@code stat} (doc, word, line, paragraph or sentence), or null for a stat of no block of
     * Sluice's: the stats of one block count the same documents, those of two blocks may not (one before a filter,
     * one after, writing into one folder).
     */
    static String blockOf(String stat) {
        if (of(stat).isEmpty()) {
            return null;
        }
        if (stat.equals("type_token_ratio")) {
            return "word";
        }
        for (String block : new String[] {"sentence", "paragraph", "word", "line"}) {
            if (stat.contains(block)) {
                return block; // avg_words_per_line is word_stats'
            }
        }
        return "doc";
    }

    /** What {@code stat} is for a document, or "" for a stat of no block of Sluice's. */
    static String of(String stat) {
        String fixed = FIXED.get(stat);
        if (fixed != null) {
            return fixed;
        }
        Matcher m = THRESHOLD.matcher(stat);
        if (m.matches()) {
            return "share of the " + m.group(2) + "s of " + (m.group(1).equals("short") ? "at most " : "at least ")
                    + m.group(3) + " characters";
        }
        return "";
    }
}
