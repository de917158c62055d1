package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.filters.GopherQualityFilter.LineCounts;
import io.sluice.text.PyText;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Gopher quality's line counts (lines, lines starting with a bullet, lines ending in an ellipsis), found
 * with indexOf per kind of line break, equal a plain walk over Python's {@code splitlines()}.
 */
class GopherLineCountsTest {
    private static final String[] PIECES = {"word", " ", "  ", "\t", "- ", "\u2022", "...", "\u2026", ".", "é",
            "\u00a0", "\n", "\n", "\n\n", "\r\n", "\r", "\u000B", "\u000C", "\u001C", "\u001D", "\u001E", "\u0085",
            "\u2028", "\u2029"};

    @Test
    void countsEqualAWalkOverSplitlines() {
        Random random = new Random(7);
        for (int t = 0; t < 20000; t++) {
            // most texts with "\n" breaks only, as real text mostly is; the rest with any break
            int kinds = random.nextInt(4) == 0 ? PIECES.length : 13;
            StringBuilder sb = new StringBuilder();
            for (int k = random.nextInt(30); k > 0; k--) {
                sb.append(PIECES[random.nextInt(kinds)]);
            }
            String text = sb.toString();
            assertEquals(walk(text), LineCounts.of(text), "text: " + text.replace("\n", "\\n").replace("\r", "\\r"));
        }
    }

    @Test
    void everyKindOfBreakEndsALine() {
        for (String brk : new String[] {"\n", "\r", "\r\n", "\u000B", "\u000C", "\u001C", "\u001D", "\u001E", "\u0085", "\u2028", "\u2029"}) {
            String text = "- one" + brk + "two..." + brk + "\u2022 three";
            assertEquals(new LineCounts(3, 2, 1), LineCounts.of(text), "break U+" + Integer.toHexString(brk.charAt(0)));
        }
        assertEquals(new LineCounts(3, 0, 0), LineCounts.of("a\n\nb\n"), "an empty middle line counts, a final break adds none");
    }

    /** The lines of splitlines() one character at a time, each stripped and tested as Gopher does. */
    private static LineCounts walk(String text) {
        int lines = 0;
        int bullets = 0;
        int endEllipsis = 0;
        int n = text.length();
        int start = 0;
        while (start < n) {
            int end = start;
            while (end < n && !PyText.isLineBreak(text.charAt(end))) {
                end++;
            }
            String line = text.substring(start, end);
            String stripped = PyText.strip(line);
            lines++;
            if (stripped.startsWith("\u2022") || stripped.startsWith("-")) {
                bullets++;
            }
            if (stripped.endsWith("...") || stripped.endsWith("\u2026")) {
                endEllipsis++;
            }
            if (end == n) {
                break;
            }
            start = end + (text.startsWith("\r\n", end) ? 2 : 1);
        }
        return new LineCounts(lines, bullets, endEllipsis);
    }
}
