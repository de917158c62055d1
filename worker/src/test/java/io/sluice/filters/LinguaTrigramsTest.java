package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.pemistahl.lingua.api.Language;
import com.github.pemistahl.lingua.api.LanguageDetector;
import com.github.pemistahl.lingua.api.LanguageDetectorBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/** Our trigram scoring must give exactly lingua's confidence values, in lingua's order. */
class LinguaTrigramsTest {
    private static final LanguageDetector DETECTOR = LanguageFilter.detector(true);
    private static final LinguaTrigrams TRIGRAMS = new LinguaTrigrams(DETECTOR);

    private static void assertSameAsLingua(String text) {
        assertSameAsLingua(DETECTOR, TRIGRAMS, text);
    }

    private static void assertSameAsLingua(LanguageDetector detector, LinguaTrigrams trigrams, String text) {
        String t = text.replace('\n', ' ');
        SortedMap<Language, Double> lingua = detector.computeLanguageConfidenceValues(t);
        SortedMap<Language, Double> ours = trigrams.confidences(t);
        assertEquals(new ArrayList<>(lingua.entrySet()), new ArrayList<>(ours.entrySet()),
                () -> "confidences differ for: " + t.substring(0, Math.min(200, t.length())));
    }

    @Test
    void equalsLinguaOnEdgeCases() {
        for (String t : List.of("", "   ", "12345 !!!", "a", "ab", "abc", "Ünïcödé", "日本語のテキストです",
                "Это предложение на русском языке.", "The quick brown fox jumps over the lazy dog.",
                "Der schnelle braune Fuchs springt über den faulen Hund.")) {
            assertSameAsLingua(t);
        }
    }

    @Test
    void equalsLinguaInHighAccuracyModeOnShortAndLongTexts() throws Exception {
        // three languages keep the 1..5-gram models small; below 120 characters lingua's own path runs
        LanguageDetector high = LanguageDetectorBuilder.fromLanguages(Language.ENGLISH, Language.GERMAN,
                Language.FRENCH).build();
        LinguaTrigrams trigrams = new LinguaTrigrams(high);
        int compared = 0;
        for (JsonNode n : SharedData.lines(SharedData.file("lid/udhr.jsonl.zst"))) {
            String text = n.get("text").asText();
            assertSameAsLingua(high, trigrams, LanguageFilter.head(text, 80));
            assertSameAsLingua(high, trigrams, LanguageFilter.head(text, 400));
            compared += 2;
        }
        assertTrue(compared > 200, "compared " + compared + " texts");
    }

    @Test
    void equalsLinguaOnUdhrAndLeipzigSentencesInManyLanguages() throws Exception {
        int compared = 0;
        for (JsonNode n : SharedData.lines(SharedData.file("lid/udhr.jsonl.zst"))) {
            assertSameAsLingua(LanguageFilter.head(n.get("text").asText(), 600));
            compared++;
        }
        Map<String, Integer> taken = new HashMap<>();
        List<String> leipzig = new ArrayList<>();
        SharedData.forEachLine(SharedData.file("lid/leipzig_sentences.jsonl.zst"), n -> {
            if (taken.merge(n.get("metadata").get("lang").asText(), 1, Integer::sum) <= 3) {
                leipzig.add(n.get("text").asText());
            }
        });
        for (String t : leipzig) {
            assertSameAsLingua(t);
        }
        compared += leipzig.size();
        assertTrue(compared > 500, "compared " + compared + " texts");
    }

    @Test
    void equalsLinguaOnWebAndEmailDocuments() throws Exception {
        for (String corpus : List.of("corpus/web_oscar_c4_mixed.jsonl.zst", "corpus/email_spamassassin.jsonl.zst")) {
            List<JsonNode> docs = SharedData.lines(SharedData.file(corpus));
            for (JsonNode n : docs.subList(0, Math.min(150, docs.size()))) {
                assertSameAsLingua(LanguageFilter.head(n.get("text").asText(), LanguageFilter.DEFAULT_MAX_CHARS));
            }
        }
    }
}
