package io.sluice.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StepArgsTest {
    /** Quoted numbers are taken as integer keys take them; before, "50" was an integer but "0.1" not a number. */
    @Test
    void quotedNumbersAreNumbersAsQuotedIntegersAreIntegers() {
        StepArgs a = new StepArgs("gopher_quality", Map.of("max_symbol_word_ratio", "0.1", "min_doc_words", "50",
                "max", " 1e3 ", "bad", "ten percent", "nan", "NaN"));
        assertEquals(0.1, a.number("max_symbol_word_ratio", 0));
        assertEquals(50, a.integer("min_doc_words", 0));
        assertEquals(1000.0, a.number("max", 0));
        assertEquals("gopher_quality: 'bad' must be a number, got 'ten percent'",
                assertThrows(JobException.class, () -> a.number("bad", 0)).getMessage());
        assertThrows(JobException.class, () -> a.number("nan", 0), "not a number a job file means");
    }
}
