package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The filters as a job file reaches them: by step name, with datatrove's keys, typos rejected. */
class FilterRegistryTest {
    @Test
    void everyFilterIsRegisteredUnderItsStepName() {
        Map<String, Class<?>> expected = Map.of(
                "gopher_quality", GopherQualityFilter.class,
                "gopher_repetition", GopherRepetitionFilter.class,
                "c4_quality", C4QualityFilter.class,
                "fineweb_quality", FineWebQualityFilter.class,
                "url_filter", UrlFilter.class,
                "language_filter", LanguageFilter.class,
                "length_filter", LengthFilter.class);
        expected.forEach((name, cls) -> assertInstanceOf(cls, StepRegistry.create(name, new StepArgs(name, Map.of()))));
    }

    @Test
    void aMisspelledKeyIsRejectedWithTheAllowedOnes() {
        JobException e = assertThrows(JobException.class,
                () -> StepRegistry.create("gopher_quality", new StepArgs("job.yaml: steps[1]", Map.of("min_doc_word", 10))));
        assertTrue(e.getMessage().contains("min_doc_word") && e.getMessage().contains("min_doc_words"), e.getMessage());
    }

    @Test
    void theQualityFiltersTakeDatatrovesLanguageKeyForEnglishOnly() {
        for (String step : List.of("gopher_quality", "gopher_repetition", "c4_quality", "fineweb_quality")) {
            StepRegistry.create(step, new StepArgs("job.yaml: steps[1]", Map.of("language", "en")));
            StepRegistry.create(step, new StepArgs("job.yaml: steps[1]", Map.of("language", "eng_Latn")));
            JobException e = assertThrows(JobException.class,
                    () -> StepRegistry.create(step, new StepArgs("job.yaml: steps[1]", Map.of("language", "fr"))));
            assertTrue(e.getMessage().contains("'language' must be English ('en', 'eng', 'en_Latn' or 'eng_Latn'"), e.getMessage());
        }
    }

    @Test
    void aLengthRangeNoDocumentCanPassIsRejected() {
        JobException e = assertThrows(JobException.class,
                () -> new LengthFilter(StepArgs.of(Map.of("min_words", 10, "max_words", 3))));
        assertTrue(e.getMessage().contains("'min_words' is 10, above max_words (3): no document could pass"), e.getMessage());
        assertTrue(new LengthFilter(StepArgs.of(Map.of("min_words", 3, "max_words", 3)))
                .filter(new Document("d", "one two three", null)).keep());
    }

    @Test
    void thresholdsFollowDatatrovesArguments() {
        Document shortDoc = new Document("d", "the cat and the dog sat with me. ".repeat(3), null);
        assertEquals("gopher_short_doc", new GopherQualityFilter(StepArgs.of(Map.of())).filter(shortDoc).reason());
        // null turns a check off, as None does in datatrove
        Map<String, Object> off = new HashMap<>();
        off.put("min_doc_words", null);
        assertTrue(new GopherQualityFilter(StepArgs.of(off)).filter(shortDoc).keep());
        assertTrue(new GopherQualityFilter(StepArgs.of(Map.of("min_doc_words", 20))).filter(shortDoc).keep());

        GopherRepetitionFilter onlyTop2 = new GopherRepetitionFilter(StepArgs.of(Map.of(
                "top_n_grams", List.of(List.of(2, 0.05)), "dup_n_grams", List.of(),
                "dup_line_frac", 0.99, "dup_para_frac", 0.99, "dup_line_char_frac", 0.99, "dup_para_char_frac", 0.99)));
        assertEquals("top_2_gram", onlyTop2.filter(new Document("d", "a b a b a b c d e f g h", null)).reason());
        // an n beyond 32 bits finds no n-grams, as in datatrove (it wrapped: 2^32 + 2 dropped this as top_2_gram)
        for (Object huge : List.of(4294967298L, new java.math.BigInteger("18446744073709551618"))) {
            assertTrue(new GopherRepetitionFilter(StepArgs.of(Map.of("top_n_grams", List.of(List.of(huge, 0.05)),
                    "dup_n_grams", List.of(), "dup_line_frac", 0.99, "dup_para_frac", 0.99, "dup_line_char_frac", 0.99,
                    "dup_para_char_frac", 0.99))).filter(new Document("d", "a b a b a b c d e f g h", null)).keep());
        }
        JobException bad = assertThrows(JobException.class,
                () -> new GopherRepetitionFilter(StepArgs.of(Map.of("top_n_grams", List.of(List.of("two", 0.2))))));
        assertTrue(bad.getMessage().contains("top_n_grams"), bad.getMessage());

        Document lines = new Document("d", "one line without a stop\nanother line without one\n", null);
        assertEquals("line_punct_ratio", new FineWebQualityFilter(StepArgs.of(Map.of())).filter(lines).reason());
        assertTrue(new FineWebQualityFilter(StepArgs.of(Map.of("line_punct_exclude_zero", true, "short_line_thr", 1.0)))
                .filter(lines).keep());
    }

    @Test
    void c4RewritesTheTextKeepingOnlyGoodLines() {
        String text = "Menu | Home | About\n"
                + "This is the first real sentence of the article. It has two sentences.\n"
                + "Please enable JavaScript to view this page correctly.\n"
                + "The second paragraph says more about the topic [1]\n"
                + "The third paragraph is long enough to count. It ends well! Does it?\n"
                + "We use cookies to improve your experience on this site.\n"
                + "A final line closes the text with a full stop.";
        Document d = new Document("d", text, null);
        assertTrue(new C4QualityFilter(StepArgs.of(Map.of())).filter(d).keep());
        assertEquals("This is the first real sentence of the article. It has two sentences.\n"
                + "The third paragraph is long enough to count. It ends well! Does it?\n"
                + "A final line closes the text with a full stop.", d.text());
        assertEquals("curly_bracket", new C4QualityFilter(StepArgs.of(Map.of()))
                .filter(new Document("d", "function f() { return 1; } is code.", null)).reason());
    }
}
