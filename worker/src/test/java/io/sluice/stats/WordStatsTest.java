package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.sluice.text.EnglishText;
import io.sluice.text.PyText;
import io.sluice.text.Tokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code word_stats}' short-word table and packed-character reading against a plain count over the token
 * strings. One step reads many documents drawn from a vocabulary far larger than the table, so words
 * replace each other in it, find their slot held by another word of the same document, and come back.
 */
class WordStatsTest {
    /** Characters a word is made of: ASCII of every case class, non-ASCII letters, a surrogate pair, a NUL. */
    private static final String[] LETTERS = {"a", "b", "e", "t", "Q", "Z", "T", "'", "-", "7", ".", "é", "Ö", "ß",
        "ǅ" /* title case */, "中", "\uD835\uDC00" /* 𝐀 */, "\0", "x", "s", "A", "h"};

    @Test
    void matchesAPlainCountOverManyDocumentsThroughOneStep() {
        WordStats step = (WordStats) StatsRun.create("word_stats", Map.of("output", "unused"));
        Random rnd = new Random(7);
        List<String> vocabulary = new ArrayList<>(List.of("the", "be", "to", "of", "and", "that", "have", "with", "The", "AND"));
        while (vocabulary.size() < 60_000) {
            StringBuilder w = new StringBuilder();
            int length = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(16) : rnd.nextInt(7));
            boolean ascii = rnd.nextInt(10) != 0;
            for (int k = 0; k < length; k++) {
                w.append(ascii ? (char) ((rnd.nextBoolean() ? 'a' : 'A') + rnd.nextInt(26)) : LETTERS[rnd.nextInt(LETTERS.length)]);
            }
            vocabulary.add(w.toString());
        }
        for (int doc = 0; doc < 150; doc++) {
            StringBuilder sb = new StringBuilder();
            int words = doc % 3 == 0 ? rnd.nextInt(50) : rnd.nextInt(20_000);
            for (int k = 0; k < words; k++) {
                // Zipf-like: most words from the head of the vocabulary, some from anywhere
                int pick = rnd.nextInt(3) == 0 ? rnd.nextInt(vocabulary.size()) : rnd.nextInt(1 + rnd.nextInt(500));
                sb.append(vocabulary.get(pick)).append(rnd.nextInt(12) == 0 ? "\n" : " ");
            }
            String text = sb.toString();
            double[] got = new double[9];
            step.extract(text, got);
            got[2] = 0; // words per line: not what this test is about (see StatBlocksTest)
            assertArrayEquals(reference(text), got, 1e-12, "document " + doc + " of " + words + " words");
        }
    }

    /**
     * Documents of emoticon and abbreviation pieces, URLs and words, whose chunks the tokenizer splits in
     * many ways ("it.", "(:", "):" merged or not depending on the chunk before): counted chunk by chunk,
     * and token by token when the thread has the text's tokens already (sentence_stats asked first).
     */
    @Test
    void chunksOfEveryKindCountAsTheirTokensWhetherOrNotTheTextWasTokenized() {
        WordStats step = (WordStats) StatsRun.create("word_stats", Map.of("output", "unused"));
        String[] pieces = {"(", ")", ":", ";", "a", ".", "'", "s", "-", "=", "*", "_", "x", "D", "p", "<", "3", "i",
            "O", "/", "[", "]", "\"", "don", "n't", "it", "U.S", "https://example.org/a?b=1", "The", "word", "Wörter",
            "\uD835\uDC00", "averyveryverylongword", "2024", ",", "!"};
        String[] gaps = {" ", " ", " ", " ", "  ", "\n", "\t", " \r\n "};
        Random rnd = new Random(3);
        for (int doc = 0; doc < 400; doc++) {
            StringBuilder sb = new StringBuilder(doc % 3 == 1 ? gaps[rnd.nextInt(gaps.length)] : "");
            int n = rnd.nextInt(doc % 2 == 0 ? 30 : 3_000);
            for (int k = 0; k < n; k++) {
                sb.append(pieces[rnd.nextInt(pieces.length)]);
                if (rnd.nextInt(3) == 0) {
                    sb.append(gaps[rnd.nextInt(gaps.length)]);
                }
            }
            String text = sb.toString();
            double[] byChunks = new double[9];
            step.extract(text, byChunks);
            double[] byTokens = new double[9];
            SharedTokens.of(text);
            step.extract(text, byTokens);
            assertArrayEquals(byTokens, byChunks, "document " + doc + ": " + text);
            byChunks[2] = 0;
            assertArrayEquals(reference(text), byChunks, 1e-12, "document " + doc + ": " + text);
        }
    }

    /** n_words, avg_word_length, (0), short_word_ratio_3, long_word_ratio_7, type_token_ratio, upper, title, stop. */
    private static double[] reference(String text) {
        Tokens tokens = new Tokens(16);
        EnglishText.tokenize(text, tokens);
        Set<String> stop = Set.copyOf(WordStats.GOPHER_STOP_WORDS);
        Set<String> distinct = new HashSet<>();
        double n = 0;
        double length = 0;
        double short3 = 0;
        double long7 = 0;
        double upper = 0;
        double title = 0;
        double stops = 0;
        for (int t = 0; t < tokens.size(); t++) {
            String word = tokens.text(t);
            if (tokens.isSpace(t)) {
                continue;
            }
            n++;
            int chars = word.codePointCount(0, word.length());
            length += chars;
            short3 += chars <= 3 ? 1 : 0;
            long7 += chars >= 7 ? 1 : 0;
            upper += PyText.isUpperWord(word) ? 1 : 0;
            title += PyText.isTitleWord(word) ? 1 : 0;
            stops += stop.contains(word) ? 1 : 0;
            distinct.add(word);
        }
        return n == 0 ? new double[9]
                : new double[] {n, length / n, 0, short3 / n, long7 / n, distinct.size() / n, upper / n, title / n, stops / n};
    }
}
