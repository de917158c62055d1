package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LanguageFilterTest {
    static final String ENGLISH = "The committee met on Tuesday to discuss the budget for next year. Several members "
            + "argued that the library should receive more money, because more people visit it every month.";
    static final String FRENCH = "Le comité s'est réuni mardi pour discuter du budget de l'année prochaine. Plusieurs "
            + "membres ont soutenu que la bibliothèque devrait recevoir plus d'argent.";

    private static Document doc(String text) {
        return new Document("d", text, new HashMap<>());
    }

    @Test
    void keepsEnglishAboveTheThresholdAndLabelsEveryDocument() {
        LanguageFilter f = new LanguageFilter(StepArgs.of(Map.of()));
        Document en = doc(ENGLISH);
        assertTrue(f.filter(en).keep());
        assertEquals("en", en.metadata().get("language"));
        assertTrue((double) en.metadata().get("language_score") > 0.65);

        Document fr = doc(FRENCH);
        Verdict v = f.filter(fr);
        assertFalse(v.keep());
        assertEquals("language", v.reason());
        assertEquals("fr", fr.metadata().get("language"));
    }

    @Test
    void languagesListNullAndLabelOnly() {
        assertTrue(new LanguageFilter(StepArgs.of(Map.of("languages", List.of("fr", "de")))).filter(doc(FRENCH)).keep());
        Map<String, Object> any = new HashMap<>();
        any.put("languages", null);
        LanguageFilter all = new LanguageFilter(StepArgs.of(any));
        assertTrue(all.filter(doc(FRENCH)).keep());
        assertTrue(all.filter(doc(ENGLISH)).keep());
        assertTrue(new LanguageFilter(StepArgs.of(Map.of("label_only", true))).filter(doc(FRENCH)).keep());
    }

    @Test
    void textWithoutLanguageIsUnknownAndDropped() {
        LanguageFilter f = new LanguageFilter(StepArgs.of(Map.of()));
        for (String text : List.of("", "   ", "12345 67890 %%% ###")) {
            Document d = doc(text);
            assertEquals("language", f.filter(d).reason());
            assertEquals("unknown", d.metadata().get("language"));
            assertEquals(0.0, d.metadata().get("language_score"));
        }
    }

    @Test
    void topPairsAreWrittenAboveTheirThreshold() {
        Document d = doc(ENGLISH);
        new LanguageFilter(StepArgs.of(Map.of("keep_top_pairs_threshold", 0.5))).filter(d);
        assertTrue(d.metadata().containsKey("top_language_en_score"), d.metadata().toString());
        // as datatrove's pairs: only the listed languages, a listed one not found at 0.0; before, every language
        // lingua scored above the threshold (some fifty at 0.0)
        Map<String, Object> args = new java.util.HashMap<>(Map.of("keep_top_pairs_threshold", -0.5, "languages", List.of("en", "de")));
        Document mixed = doc("Dies ist ein Satz. " + ENGLISH);
        new LanguageFilter(StepArgs.of(args)).filter(mixed);
        List<String> keys = mixed.metadata().keySet().stream().filter(k -> k.startsWith("top_language_")).toList();
        assertEquals(List.of("top_language_en_score", "top_language_de_score"), keys, mixed.metadata().toString());
        // languages: null (any), or [] (falsy in Python): every language scored is a pair
        for (Object none : java.util.Arrays.asList(null, List.of())) {
            args.put("languages", none);
            Document any = doc("Dies ist ein Satz. " + ENGLISH);
            new LanguageFilter(StepArgs.of(args)).filter(any);
            assertTrue(any.metadata().keySet().stream().filter(k -> k.startsWith("top_language_")).count() > 2,
                    none + ": " + any.metadata());
        }
    }

    @Test
    void anUnknownLanguageCodeIsAJobError() {
        JobException e = assertThrows(JobException.class,
                () -> new LanguageFilter(StepArgs.of(Map.of("languages", List.of("en", "xx")))));
        assertTrue(e.getMessage().contains("'xx'") && e.getMessage().contains("languages"), e.getMessage());
    }

    @Test
    void headCutsLongTextsAtAWordEnd() {
        String text = "word ".repeat(1000);
        String head = LanguageFilter.head(text, 2000);
        assertTrue(head.length() >= 2000 && head.length() < 2010);
        assertTrue(head.endsWith("word") || head.endsWith(" "), head.substring(head.length() - 8));
        assertEquals("short", LanguageFilter.head("short", 2000));
        assertEquals(text, LanguageFilter.head(text, 0));
    }
}
