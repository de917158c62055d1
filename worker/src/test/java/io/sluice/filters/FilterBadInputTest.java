package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Texts datatrove never sees (its reader drops empty ones) or chokes on: every filter decides, none throws. */
class FilterBadInputTest {
    static final Map<String, Function<StepArgs, Filter>> QUALITY = new LinkedHashMap<>();

    static {
        QUALITY.put("gopher_quality", GopherQualityFilter::new);
        QUALITY.put("gopher_repetition", GopherRepetitionFilter::new);
        QUALITY.put("c4_quality", C4QualityFilter::new);
        QUALITY.put("fineweb_quality", FineWebQualityFilter::new);
    }

    private static Map<String, Verdict> decide(String text) {
        Map<String, Verdict> out = new LinkedHashMap<>();
        QUALITY.forEach((name, f) -> out.put(name, f.apply(StepArgs.of(Map.of())).filter(new Document("d", text, null))));
        return out;
    }

    /**
     * null as datatrove reads None: a flag given as null is off (c4_quality's {@code if self.filter_curly_bracket}),
     * a number datatrove compares is refused, as datatrove fails on it; before, both took the default.
     */
    @Test
    void nullTurnsAFlagOffAndIsRefusedForANumberDatatroveCompares() {
        String text = "This is a line of text.\n".repeat(5) + "The set {a, b} is small.";
        Map<String, Object> curly = new java.util.HashMap<>();
        curly.put("filter_curly_bracket", null);
        assertEquals("curly_bracket", new C4QualityFilter(StepArgs.of(Map.of())).filter(new Document("d", text, null)).reason());
        assertTrue(new C4QualityFilter(StepArgs.of(curly)).filter(new Document("d", text, null)).keep());
        for (String key : List.of("short_line_thr", "new_line_ratio")) {
            Map<String, Object> thr = new java.util.HashMap<>();
            thr.put(key, null);
            io.sluice.job.JobException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                    () -> new FineWebQualityFilter(StepArgs.of(thr)));
            assertTrue(e.getMessage().contains("'" + key + "' is null, which datatrove fails on here (it compares it with a"
                    + " number); give a number, or leave the key out for the default"), e.getMessage());
        }
        Map<String, Object> sentences = new java.util.HashMap<>();
        sentences.put("min_num_sentences", null);
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> new C4QualityFilter(StepArgs.of(sentences))).getMessage().contains("'min_num_sentences' is null"));
    }

    @Test
    void emptyTextIsDroppedWithAReasonOrKeptAsUnrepeated() {
        Map<String, Verdict> v = decide("");
        assertEquals("gopher_short_doc", v.get("gopher_quality").reason());
        assertTrue(v.get("gopher_repetition").keep(), "nothing is repeated in an empty text");
        assertEquals("too_few_sentences", v.get("c4_quality").reason());
        assertEquals("empty", v.get("fineweb_quality").reason());
    }

    @Test
    void whitespaceAndSymbolOnlyTexts() {
        Map<String, Verdict> ws = decide(" \n\n\t \u2028 \u3000\r\n  ");
        assertEquals("gopher_short_doc", ws.get("gopher_quality").reason());
        assertEquals("too_few_sentences", ws.get("c4_quality").reason());
        assertEquals("empty", ws.get("fineweb_quality").reason());

        Map<String, Verdict> sym = decide("### ... !!! ??? ---\n*** ((( ))) ###\n".repeat(40));
        assertEquals("gopher_short_doc", sym.get("gopher_quality").reason(), "symbols are not words");
        assertEquals("dup_line_frac", sym.get("gopher_repetition").reason());
        assertEquals("too_few_sentences", sym.get("c4_quality").reason());
        assertFalse(sym.get("fineweb_quality").keep());
    }

    @Test
    void textsWithoutSpacesGetADecision() {
        String chinese = "北京是中华人民共和国的首都，也是全国的政治中心和文化中心。这座城市有三千多年的历史。";
        String japanese = "東京は日本の首都であり、世界で最も人口の多い都市圏の一つです。多くの観光客が訪れます。";
        String thai = "กรุงเทพมหานครเป็นเมืองหลวงและนครที่มีประชากรมากที่สุดของประเทศไทย";
        for (String text : List.of(chinese, japanese, thai, (chinese + "\n").repeat(30))) {
            decide(text).forEach((name, v) -> {
                assertNotNull(v, name);
                assertTrue(v.keep() || !v.reason().isEmpty(), name);
            });
        }
        // one "word" of 40 characters, far below Gopher's 50 words
        assertEquals("gopher_short_doc", decide(chinese).get("gopher_quality").reason());
    }

    @Test
    void aFiftyMegabyteDocumentIsHandled() {
        StringBuilder sb = new StringBuilder(52_000_000);
        long i = 0;
        while (sb.length() < 50_000_000) {
            sb.append("Sentence number ").append(i).append(" talks about the weather and the sea.");
            sb.append(i % 7 == 0 ? "\n" : " ");
            i++;
        }
        String text = sb.toString();
        Map<String, Verdict> v = decide(text);
        assertEquals("gopher_long_doc", v.get("gopher_quality").reason());
        assertFalse(v.get("gopher_repetition").keep(), "the same sentence shape repeats");
        assertTrue(v.get("c4_quality").keep());
        assertTrue(v.get("fineweb_quality").keep() || v.get("fineweb_quality").reason() != null);
    }
}
