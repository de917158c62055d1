package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.JobException;
import io.sluice.pipeline.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every metric of every block on small texts whose values are worked out by hand in the comments. */
class StatBlocksTest {
    @TempDir
    Path tmp;

    /** 38 characters: "Hi there." (9) \n "Hi there." (9) \n \n "- The cat is BIG!" (17). */
    static final String MIXED = "Hi there.\nHi there.\n\n- The cat is BIG!";
    /** Words that every English tokenizer splits the same way; 2 lines by splitlines(). */
    static final String WORDS = "The cat sat with the dog\nBIG Dogs run\n";
    /** Three sentences of 12, 28 and 5 characters. */
    static final String SENTENCES = "Hello there. How are you today my friend? Fine!";

    private Map<String, Object> statsOf(String block, String text) throws IOException {
        Step s = StatsRun.create(block, Map.of("output", tmp.resolve("out").toString(),
                "groups", List.of("summary", "histogram")));
        s.open(StatsRun.context(0, 1, tmp));
        Document d = new Document("d", text, new LinkedHashMap<>());
        s.process(d, x -> { });
        s.finish(x -> { });
        return d.metadata();
    }

    private Map<String, Object> statsOfWithUrl(String block, String text) throws IOException {
        Step s = StatsRun.create(block, Map.of("output", tmp.resolve("out").toString()));
        s.open(StatsRun.context(0, 1, tmp));
        Document d = new Document("d", text, new LinkedHashMap<>(Map.of("url", "https://www.bbc.co.uk/news")));
        s.process(d, x -> { });
        s.finish(x -> { });
        return d.metadata();
    }

    @Test
    void docStats() throws IOException {
        Map<String, Object> m = statsOfWithUrl("doc_stats", MIXED);
        assertEquals(38L, m.get("length"));
        assertEquals(9.0 / 38, m.get("white_space_ratio"), "3 newlines + 6 spaces");
        assertEquals(13.0 / 38, m.get("non_alpha_digit_ratio"), "9 whitespace, 2 '.', '-', '!'");
        assertEquals(0.0, m.get("digit_ratio"));
        assertEquals(6.0 / 38, m.get("uppercase_ratio"), "H H T B I G");
        assertEquals(0.0, m.get("elipsis_ratio"));
        assertEquals(4.0 / 38, m.get("punctuation_ratio"), "2 '.', '-', '!'");
        // "Wait.... what…¹²" is 16 characters: one "..." (3) plus "…" (1); '¹' and '²' are Python digits
        Map<String, Object> e = statsOf("doc_stats", "Wait.... what…¹²");
        assertEquals(4.0 / 16, e.get("elipsis_ratio"));
        assertEquals(2.0 / 16, e.get("digit_ratio"));
        assertEquals(5.0 / 16, e.get("punctuation_ratio"), "four '.' and '…'");
        assertEquals("www.bbc.co.uk", m.get("fqdn"));
        assertEquals("co.uk", m.get("suffix"));
    }

    @Test
    void wordStats() throws IOException {
        Map<String, Object> m = statsOf("word_stats", WORDS);
        assertEquals(9L, m.get("n_words"));
        assertEquals(29.0 / 9, m.get("avg_word_length"), "7 three-letter words and 'with', 'Dogs'");
        assertEquals(4.5, m.get("avg_words_per_line"));
        assertEquals(7.0 / 9, m.get("short_word_ratio_3"));
        assertEquals(0.0, m.get("long_word_ratio_7"));
        assertEquals(1.0, m.get("type_token_ratio"), "'The' and 'the' are different types");
        assertEquals(1.0 / 9, m.get("uppercase_word_ratio"), "BIG");
        assertEquals(2.0 / 9, m.get("capitalized_word_ratio"), "The, Dogs");
        assertEquals(2.0 / 9, m.get("stop_word_ratio"), "with, the (case-sensitive)");
    }

    @Test
    void wordLengthSharesForSeveralThresholds() throws IOException {
        // lengths 1, 2, 3, 5, 8, 13 (code points: "naïve" is 5)
        String text = "a bb ccc naïve eightish thirteenchars";
        Step s = StatsRun.create("word_stats", Map.of("output", tmp.resolve("out").toString(), "groups", List.of("summary"),
                "short_word_max_chars_threshold", List.of(0, 2, 5, 40), "long_word_max_chars_threshold", List.of(1, 8, 13, 14, 100)));
        s.open(StatsRun.context(0, 1, tmp));
        Document d = new Document("d", text, new LinkedHashMap<>());
        s.process(d, x -> { });
        Map<String, Object> m = d.metadata();
        assertEquals(0.0, m.get("short_word_ratio_0"));
        assertEquals(2.0 / 6, m.get("short_word_ratio_2"));
        assertEquals(4.0 / 6, m.get("short_word_ratio_5"));
        assertEquals(1.0, m.get("short_word_ratio_40"));
        assertEquals(1.0, m.get("long_word_ratio_1"));
        assertEquals(2.0 / 6, m.get("long_word_ratio_8"));
        assertEquals(1.0 / 6, m.get("long_word_ratio_13"));
        assertEquals(0.0, m.get("long_word_ratio_14"));
        assertEquals(0.0, m.get("long_word_ratio_100"));
    }

    /**
     * Thresholds reach any int, as datatrove's: 2^31 - 1 failed with "-2147483647" and 10^9 ran out of memory, as the
     * step made an array of that size. Words longer than the largest ones it keeps slots for count exactly too.
     */
    @Test
    void wordLengthThresholdsUpToTheLargestInt() throws IOException {
        String text = "a " + "x".repeat(300) + " " + "y".repeat(2000) + " " + "z".repeat(257);
        Step s = StatsRun.create("word_stats", Map.of("output", tmp.resolve("out").toString(), "groups", List.of("summary"),
                "short_word_max_chars_threshold", List.of(3, 256, 257, 300, 2147483647),
                "long_word_max_chars_threshold", List.of(257, 301, 2000, 1000000000, 2147483646)));
        s.open(StatsRun.context(0, 1, tmp));
        for (int doc = 0; doc < 2; doc++) { // the second document starts from cleared counts
            Document d = new Document("d" + doc, text, new LinkedHashMap<>());
            s.process(d, x -> { });
            Map<String, Object> m = d.metadata();
            assertEquals(4L, m.get("n_words"));
            assertEquals(1.0 / 4, m.get("short_word_ratio_3"));
            assertEquals(1.0 / 4, m.get("short_word_ratio_256"));
            assertEquals(2.0 / 4, m.get("short_word_ratio_257"));
            assertEquals(3.0 / 4, m.get("short_word_ratio_300"));
            assertEquals(1.0, m.get("short_word_ratio_2147483647"));
            assertEquals(3.0 / 4, m.get("long_word_ratio_257"));
            assertEquals(1.0 / 4, m.get("long_word_ratio_301"));
            assertEquals(1.0 / 4, m.get("long_word_ratio_2000"));
            assertEquals(0.0, m.get("long_word_ratio_1000000000"));
            assertEquals(0.0, m.get("long_word_ratio_2147483646"));
        }
    }

    /**
     * word_stats counts splitlines()' lines from the whitespace tokens; every kind of break, "\r\n" as one,
     * breaks at either end and beside spaces must give what counting the text itself gives.
     */
    @Test
    void wordsPerLineCountLinesAsSplitlines() throws IOException {
        List<String> texts = List.of("a b\nc", "a b\n", "\na", "a\r\nb\r\n", "a\rb\r", "a\u000bb\fc\u001cd\u001de\u001ef",
                "a\u0085b\u2028c\u2029d", "a \nb", "a\n \n b", "a\r\n\r\nb \r", "one\n\n\n", "\u2028", "x\u00a0\ny",
                "words  \t\n  more\u3000words");
        for (String text : texts) {
            Map<String, Object> m = statsOf("word_stats", text);
            long words = (Long) m.get("n_words");
            int lines = io.sluice.text.PyText.countLines(text);
            assertEquals((double) words / lines, m.get("avg_words_per_line"),
                    () -> lines + " lines in '" + text.replace("\n", "\\n").replace("\r", "\\r") + "'");
        }
    }

    @Test
    void lineStats() throws IOException {
        Map<String, Object> m = statsOf("line_stats", MIXED);
        assertEquals(4L, m.get("n_lines"));
        assertEquals(35.0 / 4, m.get("avg_line_length"), "9 + 9 + 0 + 17");
        assertEquals(3.0 / 4, m.get("short_line_ratio_chars_10"));
        assertEquals(1.0, m.get("short_line_ratio_chars_30"));
        assertEquals(0.0, m.get("long_line_ratio_chars_2000"));
        assertEquals(0.0, m.get("long_line_ratio_chars_10000"));
        assertEquals(3.0 / 4, m.get("lines_ending_with_terminal_mark_ratio"), "two '.' and one '!'");
        assertEquals(1.0 / 4, m.get("bullet_point_lines_ratio"));
        assertEquals(1.0 / 4, m.get("line_duplicates"), "the second 'Hi there.'");
        assertEquals(9.0 / 35, m.get("line_char_duplicates"));
    }

    /** ignore_empty_lines drops blank lines from everything but n_lines; lengths count code points. */
    @Test
    void lineStatsIgnoringEmptyLines() throws IOException {
        String text = "a\uD83D\uDE00.\n\n  \n  * b\na\uD83D\uDE00.";
        Step s = StatsRun.create("line_stats", Map.of("output", tmp.resolve("ign").toString(),
                "groups", List.of("summary"), "ignore_empty_lines", true));
        s.open(StatsRun.context(0, 1, tmp));
        Document d = new Document("d", text, new LinkedHashMap<>());
        s.process(d, x -> { });
        Map<String, Object> m = d.metadata();
        assertEquals(5L, m.get("n_lines"), "counted before dropping the blank ones");
        assertEquals(11.0 / 3, m.get("avg_line_length"), "3 + 5 + 3 code points");
        assertEquals(2.0 / 3, m.get("lines_ending_with_terminal_mark_ratio"));
        assertEquals(1.0 / 3, m.get("bullet_point_lines_ratio"), "'  * b'");
        assertEquals(1.0 / 3, m.get("line_duplicates"));
        assertEquals(3.0 / 11, m.get("line_char_duplicates"));

        Map<String, Object> all = statsOf("line_stats", text);
        assertEquals(13.0 / 5, all.get("avg_line_length"), "3 + 0 + 2 + 5 + 3");
        assertEquals(1.0 / 5, all.get("line_duplicates"));
    }

    /**
     * Duplicate lines against a set of the line strings, over random texts whose lines (0 to 11 characters, some
     * with surrogate pairs, some differing only in their last character) repeat at every offset, so that the
     * line hash's four interleaved lanes and its tail meet equal lines at different alignments.
     */
    @Test
    void lineDuplicatesAreThoseOfASetOfTheLines() throws IOException {
        java.util.Random random = new java.util.Random(7);
        String[] alphabet = {"a", "b", " ", "\uD83D\uDE00", "\u00e9"};
        Step step = StatsRun.create("line_stats", Map.of("output", tmp.resolve("dups").toString(), "groups", List.of("summary")));
        step.open(StatsRun.context(0, 1, tmp));
        for (int round = 0; round < 500; round++) {
            List<String> lines = new java.util.ArrayList<>();
            for (int i = 0, count = 1 + random.nextInt(30); i < count; i++) {
                StringBuilder line = new StringBuilder();
                for (int k = random.nextInt(12); k > 0; k--) {
                    line.append(alphabet[random.nextInt(alphabet.length)]);
                }
                lines.add(line.toString());
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            long duplicates = 0;
            long duplicateChars = 0;
            long chars = 0;
            for (String line : lines) {
                int length = line.codePointCount(0, line.length());
                chars += length;
                if (!seen.add(line)) {
                    duplicates++;
                    duplicateChars += length;
                }
            }
            String text = String.join("\n", lines);
            Document d = new Document("d" + round, text, new LinkedHashMap<>());
            step.process(d, x -> { });
            Map<String, Object> m = d.metadata();
            assertEquals((double) duplicates / lines.size(), m.get("line_duplicates"), text);
            assertEquals(chars == 0 ? 0.0 : (double) duplicateChars / chars, m.get("line_char_duplicates"), text);
            assertEquals((double) chars / lines.size(), m.get("avg_line_length"), text);
        }
    }

    @Test
    void paragraphStats() throws IOException {
        Map<String, Object> m = statsOf("paragraph_stats", MIXED + "\n\n- The cat is BIG!\n\n \n\n");
        // paragraphs: "Hi there.\nHi there." (19), "- The cat is BIG!" (17) twice; " " and "" dropped
        assertEquals(3L, m.get("n_paragraphs"));
        assertEquals(53.0 / 3, m.get("avg_paragraph_length"));
        assertEquals(1.0, m.get("short_paragraph_ratio_100"));
        assertEquals(0.0, m.get("long_paragraph_ratio_1000"));
        assertEquals(1.0 / 3, m.get("paragraph_duplicates"));
        assertEquals(17.0 / 53, m.get("paragraph_char_duplicates"));
    }

    @Test
    void sentenceStats() throws IOException {
        Map<String, Object> m = statsOf("sentence_stats", SENTENCES);
        assertEquals(3L, m.get("n_sentences"));
        assertEquals(45.0 / 3, m.get("avg_sentence_length"));
        assertEquals(2.0 / 3, m.get("short_sentence_ratio_20"));
        assertEquals(0.0, m.get("long_sentence_ratio_75"));
    }

    @Test
    void thresholdsComeFromTheJobFile() throws IOException {
        Step s = StatsRun.create("line_stats", Map.of("output", tmp.toString(),
                "max_k_chars_per_line_tresholds", List.of(5), "min_k_chars_per_line_thresholds", List.of()));
        assertEquals(List.of("n_lines", "avg_line_length", "short_line_ratio_chars_5",
                "lines_ending_with_terminal_mark_ratio", "bullet_point_lines_ratio", "line_duplicates",
                "line_char_duplicates"), ((StatsStep) s).statNames());
        JobException e = assertThrows(JobException.class,
                () -> StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("summary", "words"))));
        assertTrue(e.getMessage().contains("groups"), e.getMessage());
        // named twice, counted once, as datatrove's dict of groups; before, refused as clashing with itself
        StatsStep twice = (StatsStep) StatsRun.create("line_stats", Map.of("output", tmp.toString(),
                "groups", List.of("summary", "summary"), "max_k_chars_per_line_tresholds", List.of(5, 5),
                "min_k_chars_per_line_thresholds", List.of()));
        assertEquals(((StatsStep) s).statNames(), twice.statNames());
        assertEquals(((StatsStep) s).statNames().size(), twice.statFolders().size());
    }

    /**
     * A step keeps its distinct-word and distinct-line tables from document to document: a document after
     * a larger one with the same words must count its own repeats only, exactly as a fresh step does.
     */
    @Test
    void oneStepOverManyDocumentsGivesWhatFreshStepsGive() throws IOException {
        List<String> texts = List.of(("the cat sat\n" + "a dog ran\n").repeat(40), "the cat sat\nthe cat sat",
                "", "a dog ran\nthe bird", WORDS, MIXED);
        for (String block : List.of("word_stats", "line_stats")) {
            Step shared = StatsRun.create(block, Map.of("output", tmp.resolve("shared-" + block).toString(),
                    "groups", List.of("summary")));
            shared.open(StatsRun.context(0, 1, tmp));
            for (String text : texts) {
                Document d = new Document("d", text, new LinkedHashMap<>());
                shared.process(d, x -> { });
                assertEquals(statsOf(block, text), d.metadata(), () -> block + " of '" + text + "'");
            }
            shared.finish(x -> { });
        }
    }

    /** Documents without words, lines or sentences give zeros, never NaN or a division error. */
    @Test
    void emptyDocumentsGiveZerosNotNaN() throws IOException {
        for (String text : List.of("", "   ", " \n\n ", "\n")) {
            for (String block : StatsRun.BLOCKS) {
                Map<String, Object> m = statsOf(block, text);
                for (Map.Entry<String, Object> e : m.entrySet()) {
                    double v = ((Number) e.getValue()).doubleValue();
                    assertFalse(Double.isNaN(v) || Double.isInfinite(v), block + " " + e.getKey() + " on '" + text + "'");
                    // no words, sentences or paragraphs: every value of those blocks is 0
                    if (List.of("word_stats", "sentence_stats", "paragraph_stats").contains(block)) {
                        assertEquals(0.0, v, block + " " + e.getKey() + " on '" + text + "'");
                    }
                }
            }
        }
        Map<String, Object> empty = statsOf("line_stats", "");
        assertEquals(0.0, empty.get("avg_line_length"));
        assertEquals(0.0, empty.get("line_char_duplicates"), "no characters in any line");
        assertEquals(0.0, statsOf("doc_stats", "").get("white_space_ratio"), "length 0");
        assertEquals(3L, statsOf("line_stats", " \n\n ").get("n_lines"), "split('\\n') of a blank text");
    }

    /** Python's round takes any integer at once; a BigDecimal rounding at 10^8 digits hung, and 2^31 - 1 overflowed. */
    @Test
    void anyHistogramRoundingRoundsAsPython() throws IOException {
        // round(5, n) and round(0.2, n): 5 and 0.2 for n past 323, 0 and 0.0 for n below -308
        for (long digits : new long[] {100_000_000L, 99_999_999_999L, Integer.MAX_VALUE, -99_999_999L, Long.MIN_VALUE}) {
            Path out = tmp.resolve("round" + digits);
            StatsRun.runRank(List.of("doc_stats"), Map.of("output", out.toString(), "groups", List.of("histogram"),
                    "histogram_round_digits", digits), List.of(new Document("a", "ab cd", Map.of())), 0, 1, tmp);
            boolean kept = digits > 0;
            assertEquals("{\"" + (kept ? "5" : "0") + "\": {\"total\": 1, \"unit\": \"task\"}}",
                    Files.readString(out.resolve("histogram/length/00000.json")), "digits " + digits);
            assertEquals("{\"" + (kept ? "0.2" : "0.0") + "\": {\"total\": 1, \"unit\": \"task\"}}",
                    Files.readString(out.resolve("histogram/white_space_ratio/00000.json")), "digits " + digits);
        }
    }

    @Test
    void filesFollowDatatrovesLayout() throws IOException {
        Path out = tmp.resolve("layout");
        StatsRun.runRank(List.of("doc_stats"), Map.of("output", out.toString()),
                List.of(new Document("a", MIXED, Map.of("url", "https://a.example.com/x")),
                        new Document("b", "Short.", Map.of("url", "http://b.example.org"))), 3, 4, tmp);
        assertEquals("{\"summary\": {\"total\": 44, \"n\": 2, \"mean\": 22.0, \"variance\": 512.0, "
                        + "\"std_dev\": 22.627416997969522, \"min\": 6, \"max\": 38, \"unit\": \"task\"}}",
                Files.readString(out.resolve("summary/length/00003.json")));
        assertEquals("{\"38\": {\"total\": 1, \"unit\": \"task\"}, \"6\": {\"total\": 1, \"unit\": \"task\"}}",
                Files.readString(out.resolve("histogram/length/00003.json")));
        assertTrue(Files.exists(out.resolve("histogram/length__chars/00003.json")));
        assertTrue(Files.exists(out.resolve("summary/length/00003.quantiles.json")));
        // datatrove would write {"total": 38, "mean": 38.0} and read it back as 38 samples; we add "n": 1
        assertEquals("{\"a.example.com\": {\"total\": 38, \"n\": 1, \"mean\": 38.0, \"unit\": \"task\"}, "
                        + "\"b.example.org\": {\"total\": 6, \"n\": 1, \"mean\": 6.0, \"unit\": \"task\"}}",
                Files.readString(out.resolve("fqdn/length/00003.json")));
        assertTrue(Files.exists(out.resolve("suffix/digit_ratio/00003.json")));
    }

    @Test
    void documentsWithoutUrlAreLeftOutOfDomainGroupsAndCounted() throws IOException {
        Step s = StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("fqdn", "summary")));
        io.sluice.pipeline.StepContext ctx = StatsRun.context(0, 1, tmp);
        s.open(ctx);
        List<String> passed = new java.util.ArrayList<>();
        s.process(new Document("doc-7", "text", new LinkedHashMap<>()), d -> passed.add(d.id()));
        s.process(new Document("doc-8", "more text", new LinkedHashMap<>(Map.of("url", "http://b.example.org"))),
                d -> passed.add(d.id()));
        // a URL without a host, "" or not: the key "", as tldextract's fqdn gives datatrove
        s.process(new Document("doc-9", "abc", new LinkedHashMap<>(Map.of("url", ""))), d -> passed.add(d.id()));
        s.process(new Document("doc-10", "abcd", new LinkedHashMap<>(Map.of("url", "not a url"))), d -> passed.add(d.id()));
        s.finish(x -> { });
        assertEquals(List.of("doc-7", "doc-8", "doc-9", "doc-10"), passed);
        assertEquals(1, ctx.stats().get("no_url_fqdn"));
        String fqdn = Files.readString(tmp.resolve("fqdn/length/00000.json"));
        assertTrue(fqdn.contains("b.example.org"), fqdn);
        assertTrue(fqdn.contains("\"\": {\"total\": 7, \"n\": 2"), fqdn);
        assertTrue(Files.readString(tmp.resolve("summary/length/00000.json")).contains("\"total\": 20"));
    }

    /**
     * An fqdn in the metadata that is a number or a boolean is its key as Python's json writes it, as datatrove keys its
     * dict by the value; one that is a list (which datatrove cannot use as a key) gives way to the URL's split. Before,
     * 5 and true were set aside for the URL's split too.
     */
    @Test
    void aNumberOrBooleanFqdnInTheMetadataIsItsKey() throws IOException {
        Step s = StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("fqdn")));
        s.open(StatsRun.context(0, 1, tmp));
        Object[] given = {5L, true, 1.5, List.of("x")};
        for (int i = 0; i < given.length; i++) {
            s.process(new Document("d" + i, "x".repeat(i + 1), new LinkedHashMap<>(Map.of("fqdn", given[i],
                    "url", "https://www.example.com/"))), d -> { });
        }
        s.finish(x -> { });
        assertEquals("{\"5\": {\"total\": 1, \"unit\": \"task\"}, \"true\": {\"total\": 2, \"n\": 1,"
                + " \"mean\": 2.0, \"unit\": \"task\"}, \"1.5\": {\"total\": 3, \"n\": 1, \"mean\": 3.0, \"unit\": \"task\"},"
                + " \"www.example.com\": {\"total\": 4, \"n\": 1, \"mean\": 4.0, \"unit\": \"task\"}}",
                Files.readString(tmp.resolve("fqdn/length/00000.json")));
    }

    @Test
    void topKCutsOnlyTheGroupsOfTopKGroups() throws IOException {
        List<Document> docs = List.of(
                new Document("1", "a", new LinkedHashMap<>(Map.of("url", "http://a.example.com/x"))),
                new Document("2", "bb", new LinkedHashMap<>(Map.of("url", "http://a.example.com/y"))),
                new Document("3", "ccc", new LinkedHashMap<>(Map.of("url", "http://b.example.org/"))));
        // datatrove's TopKConfig(top_k_groups=["fqdn"], top_k=1): fqdn keeps its most frequent key, suffix all
        StatsRun.runRank(List.of("doc_stats"), Map.of("output", tmp.resolve("fqdn-only").toString(), "top_k", 1,
                "top_k_groups", List.of("fqdn")), docs, 0, 1, tmp);
        String fqdn = Files.readString(tmp.resolve("fqdn-only/fqdn/length/00000.json"));
        assertTrue(fqdn.contains("a.example.com") && !fqdn.contains("b.example.org"), fqdn);
        String suffix = Files.readString(tmp.resolve("fqdn-only/suffix/length/00000.json"));
        assertTrue(suffix.contains("\"com\"") && suffix.contains("\"org\""), suffix);
        // [] cuts nothing
        StatsRun.runRank(List.of("doc_stats"), Map.of("output", tmp.resolve("none").toString(), "top_k", 1,
                "top_k_groups", List.of()), docs, 0, 1, tmp);
        fqdn = Files.readString(tmp.resolve("none/fqdn/length/00000.json"));
        assertTrue(fqdn.contains("a.example.com") && fqdn.contains("b.example.org"), fqdn);

        JobException e = assertThrows(JobException.class, () -> StatsRun.create("doc_stats",
                Map.of("output", tmp.toString(), "top_k_groups", List.of("histogram"))));
        assertTrue(e.getMessage().contains("top_k_groups") && e.getMessage().contains("must be a subset of fqdn, suffix"),
                e.getMessage());
        e = assertThrows(JobException.class, () -> StatsRun.create("doc_stats",
                Map.of("output", tmp.toString(), "top_k_config", Map.of("top_k", 10))));
        assertTrue(e.getMessage().contains("here it is 'top_k', with 'top_k_groups' for its groups"), e.getMessage());
    }

    @Test
    void aBlockWithAnotherUrlKeyDoesNotTakeTheDomainAnEarlierBlockFound() throws IOException {
        Step first = StatsRun.create("doc_stats", Map.of("output", tmp.resolve("a").toString(), "groups", List.of("fqdn"),
                "url_key", "metadata.metadata.url"));
        Step second = StatsRun.create("line_stats", Map.of("output", tmp.resolve("b").toString(), "groups", List.of("fqdn", "suffix")));
        io.sluice.pipeline.StepContext firstCtx = StatsRun.context(0, 1, tmp);
        io.sluice.pipeline.StepContext secondCtx = StatsRun.context(0, 1, tmp);
        first.open(firstCtx);
        second.open(secondCtx);
        Document nested = new Document("nested", "text", new LinkedHashMap<>(Map.of("metadata", Map.of("url", "https://a.example.com/"))));
        Document flat = new Document("flat", "text", new LinkedHashMap<>(Map.of("url", "https://b.example.org/")));
        for (Document d : List.of(nested, flat)) {
            first.process(d, x -> second.process(x, y -> { }));
        }
        first.finish(x -> { });
        second.finish(x -> { });
        // before, line_stats counted "nested" under a.example.com and its suffix "com", from doc_stats' finding
        assertEquals(1, firstCtx.stats().get("no_url_fqdn"), "flat");
        assertEquals(1, secondCtx.stats().get("no_url_fqdn"), "nested");
        assertEquals(1, secondCtx.stats().get("no_url_suffix"), "nested");
        String fqdn = Files.readString(tmp.resolve("b/fqdn/n_lines/00000.json"));
        assertFalse(fqdn.contains("a.example.com"), fqdn);
        assertTrue(fqdn.contains("b.example.org"), fqdn);
        // as datatrove: only the groups computed go into the metadata
        assertEquals("a.example.com", nested.metadata().get("fqdn"));
        assertFalse(nested.metadata().containsKey("suffix"));
        assertEquals("org", flat.metadata().get("suffix"));

        // a suffix the input gives is used as given, as datatrove reads it, after another block too (the first
        // version of the note above took the URL's instead)
        Step third = StatsRun.create("line_stats", Map.of("output", tmp.resolve("c").toString(), "groups", List.of("suffix")));
        io.sluice.pipeline.StepContext thirdCtx = StatsRun.context(0, 1, tmp);
        first.open(StatsRun.context(0, 1, tmp));
        third.open(thirdCtx);
        Document given = new Document("given", "text", new LinkedHashMap<>(Map.of("url", "http://www.example.com/a",
                "suffix", "bogus", "metadata", Map.of("url", "http://www.example.com/a"))));
        first.process(given, x -> third.process(x, y -> { }));
        third.finish(x -> { });
        assertTrue(Files.readString(tmp.resolve("c/suffix/n_lines/00000.json")).startsWith("{\"bogus\": "));
    }

    /**
     * Thresholds are whole numbers in int range: 5000000000 wrapped to a stat named long_line_ratio_chars_705032704,
     * and 10.0 was named ..._10 where datatrove names it ..._10.0. English is also datatrove's 'eng_Latn'.
     */
    @Test
    void thresholdsOutsideIntRangeOrFractionalAreRefusedAndEnglishHasDatatrovesSpellings() {
        for (Object bad : List.of(5_000_000_000L, 10.0, -1)) {
            io.sluice.job.JobException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                    () -> StatsRun.create("line_stats", Map.of("output", tmp.toString(), "min_k_chars_per_line_thresholds",
                            List.of(bad))));
            assertTrue(e.getMessage().contains("min_k_chars_per_line_thresholds") && e.getMessage().contains("must be a list of"
                    + " whole numbers from 0 to 2147483647, got '" + bad + "'"), e.getMessage());
        }
        StatsStep ok = (StatsStep) StatsRun.create("line_stats", Map.of("output", tmp.toString(), "min_k_chars_per_line_thresholds",
                List.of(2_147_483_647L)));
        assertTrue(ok.statNames().contains("long_line_ratio_chars_2147483647"), ok.statNames().toString());
        for (String english : List.of("en", "eng", "eng_Latn", "en_Latn")) {
            StatsRun.create("word_stats", Map.of("output", tmp.toString(), "language", english));
        }
        org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> StatsRun.create("word_stats", Map.of("output", tmp.toString(), "language", "fra_Latn")));
    }

    /**
     * stop_words is a list: datatrove tests {@code word in stop_words}, so its WordStats would take the string "the" as
     * its substrings ("he" a stop word) and gopher_quality as its letters; Sluice took it as ["the"] without a word.
     * null: datatrove's WordStats fails on it, gopher_quality takes its default list.
     */
    @Test
    void stopWordsAreAListAndNullIsDatatroves() {
        Map<String, Object> asString = Map.of("output", tmp.toString(), "stop_words", "the");
        io.sluice.job.JobException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> StatsRun.create("word_stats", asString));
        assertTrue(e.getMessage().contains("stop_words") && e.getMessage().contains("must be a list of words, such as [the]:"
                + " datatrove would read the string 'the' as its substrings"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> StatsRun.create("gopher_quality", Map.of("stop_words", "the")));
        assertTrue(e.getMessage().contains("datatrove would read the string 'the' as the set of its letters"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> StatsRun.create("gopher_quality", Map.of("stop_words", 5)));
        assertTrue(e.getMessage().contains("'stop_words' must be a list of words, got '5'"), e.getMessage());
        Map<String, Object> withNull = new java.util.HashMap<>(Map.of("output", tmp.toString()));
        withNull.put("stop_words", null);
        e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class, () -> StatsRun.create("word_stats", withNull));
        assertTrue(e.getMessage().contains("stop_words") && e.getMessage().contains("is null: datatrove's word_stats fails on None"),
                e.getMessage());
        Map<String, Object> gopherNull = new java.util.HashMap<>();
        gopherNull.put("stop_words", null);
        StatsRun.create("gopher_quality", gopherNull);
        StatsRun.create("word_stats", Map.of("output", tmp.toString(), "stop_words", List.of("the")));
    }

    /** An empty stop word never matches a word, as datatrove's {@code in} test; the job stopped on it ("Index 0 out of bounds"). */
    @Test
    void anEmptyStopWordMatchesNothing() throws IOException {
        Step s = StatsRun.create("word_stats", Map.of("output", tmp.resolve("out").toString(), "groups", List.of("summary"),
                "stop_words", List.of("the", "")));
        s.open(StatsRun.context(0, 1, tmp));
        Document d = new Document("d", WORDS, new LinkedHashMap<>());
        s.process(d, x -> { });
        s.finish(x -> { });
        assertEquals(1.0 / 9, d.metadata().get("stop_word_ratio"), "the");
        Step gopher = StatsRun.create("gopher_quality", Map.of("stop_words", List.of("", "the", "with")));
        gopher.open(StatsRun.context(0, 1, tmp));
    }

    @Test
    void tokenCountsGoToTheTokensHistogramAndOnesThatAreNotNumbersAreCounted() throws IOException {
        Step s = StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("histogram")));
        io.sluice.pipeline.StepContext ctx = StatsRun.context(0, 1, tmp);
        s.open(ctx);
        s.process(new Document("a", "abc", new LinkedHashMap<>(Map.of("token_count", 7))), d -> { });
        s.process(new Document("b", "abc", new LinkedHashMap<>(Map.of("token_count", "3"))), d -> { });
        s.process(new Document("c", "abcd", new LinkedHashMap<>()), d -> { });
        s.process(new Document("d", "abc", new LinkedHashMap<>(Map.of("token_count", Double.NaN))), d -> { });
        s.process(new Document("e", "abc", new LinkedHashMap<>(Map.of("token_count", Double.POSITIVE_INFINITY))), d -> { });
        s.finish(x -> { });
        // as datatrove's {"tokens": token_count} beside "" and "chars": the tokens of the documents of each bin
        assertEquals("{\"3\": {\"total\": 7, \"n\": 1, \"mean\": 7.0, \"unit\": \"task\"}}",
                Files.readString(tmp.resolve("histogram/length__tokens/00000.json")));
        // before, "3" was left out without a word (datatrove fails on it); NaN counted 0 tokens, Infinity overflowed
        assertEquals(3, ctx.stats().get("token_count_not_a_number"));
    }

    /** datatrove adds token_count as Python has it: 12.7 was cut to 12, true was left out (Python's bools are ints). */
    @Test
    void tokenCountsThatAreFloatsOrBoolsAreAddedAsPythonAddsThem() throws IOException {
        Step s = StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("histogram")));
        io.sluice.pipeline.StepContext ctx = StatsRun.context(0, 1, tmp);
        s.open(ctx);
        s.process(new Document("a", "abc", new LinkedHashMap<>(Map.of("token_count", 12.7))), d -> { });
        s.process(new Document("b", "abc", new LinkedHashMap<>(Map.of("token_count", 3))), d -> { });
        s.process(new Document("c", "abcd", new LinkedHashMap<>(Map.of("token_count", true))), d -> { });
        s.finish(x -> { });
        String tokens = Files.readString(tmp.resolve("histogram/length__tokens/00000.json"));
        assertTrue(tokens.startsWith("{\"3\": {\"total\": 15.7, \"n\": 2, \"mean\": 7.85,"), tokens);
        assertTrue(tokens.endsWith("\"4\": {\"total\": 1, \"unit\": \"task\"}}"), tokens);
        assertEquals(0, ctx.stats().get("token_count_not_a_number"));
    }

    /** A URL that is not text is said to be so; before, the log said the document had none. */
    @Test
    void aUrlThatIsNotTextIsNamedInTheLog() throws IOException {
        Step s = StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("fqdn")));
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        s.open(new io.sluice.pipeline.StepContext(0, 1, new io.sluice.pipeline.StepStats("test"),
                io.sluice.pipeline.TaskLog.toStream(new java.io.PrintStream(log, true)), tmp, new io.sluice.pipeline.ProgressCounter()));
        s.process(new Document("doc-1", "text", new LinkedHashMap<>(Map.of("url", 123))), d -> { });
        s.finish(x -> { });
        assertTrue(log.toString().contains("document 'doc-1' has the number 123 in metadata 'metadata.url', not a text URL;"
                + " documents without one are left out of the 'fqdn' group and counted as no_url_fqdn"), log.toString());
        // both domain groups, two documents without a URL: one line (before, one a group, ten a rank for five blocks)
        log.reset();
        Step both = StatsRun.create("doc_stats", Map.of("output", tmp.resolve("b").toString(), "groups", List.of("fqdn", "suffix")));
        both.open(new io.sluice.pipeline.StepContext(0, 1, new io.sluice.pipeline.StepStats("test"),
                io.sluice.pipeline.TaskLog.toStream(new java.io.PrintStream(log, true)), tmp, new io.sluice.pipeline.ProgressCounter()));
        both.process(new Document("doc-2", "text", new LinkedHashMap<>()), d -> { });
        both.process(new Document("doc-3", "text", new LinkedHashMap<>()), d -> { });
        both.finish(x -> { });
        assertEquals(1, log.toString().lines().filter(l -> l.contains("has no URL")).count(), log.toString());
        assertTrue(log.toString().contains("document 'doc-2' has no URL in metadata 'metadata.url'; documents without one are"
                + " left out of the 'fqdn' and 'suffix' groups and counted as no_url_fqdn and no_url_suffix"), log.toString());
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> StatsRun.create("doc_stats", Map.of("output", tmp.toString(), "groups", List.of("sumary"))));
        assertTrue(e.getMessage().endsWith("must be a subset of summary, histogram, fqdn, suffix, got 'sumary' (did you mean"
                + " 'summary'?)"), e.getMessage());
    }

    @Test
    void filesOfAnEarlierRunAreNotLeftForTheMerge() throws IOException {
        Path out = tmp.resolve("out");
        Path length = out.resolve("summary/length");
        Files.createDirectories(length);
        for (String stale : new String[] {"00001.json", "00003.json", "00003.quantiles.json"}) {
            Files.writeString(length.resolve(stale), "{\"summary\": {\"total\": 99, \"n\": 1, \"mean\": 99.0, \"unit\": \"task\"}}");
        }
        Files.writeString(out.resolve("summary/other_step_stat.txt"), "not ours");
        // numbered, but no rank's name: left alone (a name past an int failed the rank with "For input string")
        Files.writeString(length.resolve("20240101120000.json"), "{}");
        // two ranks now: rank 0 sees two documents, rank 1 none
        for (int rank = 0; rank < 2; rank++) {
            Step s = StatsRun.create("doc_stats", Map.of("output", out.toString(), "groups", List.of("summary")));
            s.open(StatsRun.context(rank, 2, tmp));
            if (rank == 0) {
                s.process(new Document("a", "abc", new LinkedHashMap<>()), d -> { });
                s.process(new Document("b", "de", new LinkedHashMap<>()), d -> { });
            }
            s.finish(d -> { });
        }
        assertTrue(Files.exists(length.resolve("00000.json")));
        assertFalse(Files.exists(length.resolve("00001.json")), "rank 1 had no documents this time");
        assertFalse(Files.exists(length.resolve("00003.json")), "there is no rank 3 now");
        assertFalse(Files.exists(length.resolve("00003.quantiles.json")));
        assertTrue(Files.exists(out.resolve("summary/other_step_stat.txt")));
        assertTrue(Files.exists(length.resolve("20240101120000.json")));
        StatsRun.merge(out, out, 1, tmp);
        assertTrue(Files.readString(length.resolve("metric.json")).contains("\"total\": 5"),
                Files.readString(length.resolve("metric.json")));
    }
}
