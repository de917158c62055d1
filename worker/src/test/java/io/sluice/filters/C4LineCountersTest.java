package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** c4_quality counts lines as datatrove's C4QualityFilter does, under its counter names, in the step's stats. */
class C4LineCountersTest {
    @TempDir
    Path dir;

    @Test
    void everyLineIsCountedByTheRuleThatRemovedItOrAsKept() throws IOException {
        C4QualityFilter c4 = new C4QualityFilter(StepArgs.of(Map.of("max_word_length", 10, "min_num_sentences", 1)));
        StepContext ctx = StepContext.standalone("c4_quality", dir);
        c4.open(ctx);
        String kept = String.join("\n",
                "This line is kept as it is.",
                "A line without an end mark",                 // no_terminal_punc
                "Two words.",                                  // too_few_words
                "Enable javascript in your browser now.",     // javascript
                "Read our privacy policy before you go.",      // policy
                "It holds averyveryverylongword in it.",       // too_long_word
                "Another line that is kept here.");
        // a document dropped for a curly bracket: its lines are counted as far as it got, as in datatrove
        String dropped = "A first line that is kept.\nThen a {bracket} line follows here.\nNever looked at.";
        List<String> forwarded = new ArrayList<>();
        for (Document d : List.of(new Document("a", kept, null), new Document("b", dropped, null))) {
            c4.process(d, x -> forwarded.add(x.id()));
        }
        c4.finish(x -> { });
        assertEquals(List.of("a"), forwarded);
        Map<String, Long> c = ctx.stats().counters();
        assertEquals(9, c.get("line-total"));
        assertEquals(3, c.get("line-kept"));
        assertEquals(1, c.get("line-filter-no_terminal_punc"));
        assertEquals(1, c.get("line-filter-too_few_words"));
        assertEquals(1, c.get("line-filter-javascript"));
        assertEquals(1, c.get("line-filter-policy"));
        assertEquals(1, c.get("line-filter-too_long_word"));
        assertEquals(1, c.get("dropped_curly_bracket"));
    }
}
