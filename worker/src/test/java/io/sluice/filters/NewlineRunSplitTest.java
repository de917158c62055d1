package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Gopher repetition filter's hand-written paragraph and line split equals the regex split it replaces. */
class NewlineRunSplitTest {
    @Test
    void equalsRegexSplitOnEdgeCases() {
        Pattern paragraphs = Pattern.compile("\n{2,}");
        Pattern lines = Pattern.compile("\n+");
        for (String s : List.of("", "\n", "\n\n", "a", "a\n", "\na", "\n\na\n\n", "a\nb", "a\n\nb", "a\n\n\nb\n",
                "\n\n\n", "x\ny\n\n\nz\n\n", "a\r\n\r\nb")) {
            assertArrayEquals(paragraphs.split(s, -1), GopherRepetitionFilter.splitAtNewlineRuns(s, 2), s);
            assertArrayEquals(lines.split(s, -1), GopherRepetitionFilter.splitAtNewlineRuns(s, 1), s);
        }
    }
}
