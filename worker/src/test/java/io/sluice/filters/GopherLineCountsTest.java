package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.filters.GopherQualityFilter.LineCounts;
import io.sluice.text.PyText;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Gopher quality's line counts (lines, bullet lines, lines ending in an ellipsis) take the fast path only where it is exact. */
class GopherLineCountsTest {
    private static final String[] PIECES = {"word", " ", "  ", "\t", "- ", "\u2022", "...", "\u2026", ".", "\n", "\n\n", "\u00a0", "é"};

    @Test
    void newlineOnlyTextsCountAsWithEveryKindOfBreak() {
        Random random = new Random(7);
        for (int t = 0; t < 5000; t++) {
            StringBuilder sb = new StringBuilder();
            for (int k = random.nextInt(30); k > 0; k--) {
                sb.append(PIECES[random.nextInt(PIECES.length)]);
            }
            String text = sb.toString();
            assertFalse(PyText.hasLineBreakOtherThanNewline(text));
            assertEquals(LineCounts.ofAnyBreaks(text), LineCounts.ofNewlines(text), "text: " + text.replace("\n", "\\n"));
        }
    }

    @Test
    void otherBreaksAreFoundAndCounted() {
        for (String brk : new String[] {"\r", "\r\n", "\u000B", "\u000C", "\u001C", "\u001D", "\u001E", "\u0085", "\u2028", "\u2029"}) {
            String text = "- one" + brk + "two..." + brk + "\u2022 three";
            assertTrue(PyText.hasLineBreakOtherThanNewline(text), "break U+" + Integer.toHexString(brk.charAt(0)));
            assertEquals(new LineCounts(3, 2, 1), LineCounts.of(text), "break U+" + Integer.toHexString(brk.charAt(0)));
        }
        assertEquals(new LineCounts(2, 0, 0), LineCounts.of("a\nb"));
        assertEquals(new LineCounts(3, 0, 0), LineCounts.of("a\n\nb\n"), "an empty middle line counts, a final break adds none");
    }
}
