package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** c4_quality's {@code max_word_length}: a line holding a longer word (in code points, as Python's len) goes. */
class C4LongWordTest {
    @Test
    void linesWithAWordLongerThanTheLimitAreRemoved() {
        C4QualityFilter c4 = new C4QualityFilter(StepArgs.of(Map.of("max_word_length", 10)));
        String text = String.join("\n",
                "This line has only short words in it.",
                "This line has one word that is muchtoolongforit here.",
                "Ten letter words like abcdefghij are fine.",
                "Emoji count once: \uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00 is six.",
                "Another plain line is here.",
                "And one more plain line ends.",
                "Short but fine.");
        Document doc = new Document("x", text, null);
        assertTrue(c4.filter(doc).keep());
        assertEquals(text.replace("This line has one word that is muchtoolongforit here.\n", ""), doc.text());
    }
}
