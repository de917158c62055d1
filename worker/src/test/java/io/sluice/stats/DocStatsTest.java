package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.sluice.text.PyText;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@code doc_stats}' census kernel and packed-counter loop against a plain per-code-point count of the same rules. */
class DocStatsTest {
    /** Characters of every class the loop treats apart, with surrogate pairs and lone surrogates. */
    private static final String[] PIECES = {"a", "Z", "é", "Ö", "ß", "7", "٣", "²", " ", "\n", "\u3000", ".", ".",
        "…", "!", "—", "“", "\u0085", "\u0007", "中", "\uD835\uDC00" /* 𝐀: upper alpha */, "\uD83D\uDE00",
        "\uD835\uDFCE" /* 𝟎: digit */, "\uD800", "\uDC00", "x", "y", " "};

    @Test
    void matchesAPlainCountOnRandomTextOfAnyLength() {
        DocStats step = (DocStats) StatsRun.create("doc_stats", Map.of("output", "unused"));
        Random rnd = new Random(3);
        for (int round = 0; round < 300; round++) {
            StringBuilder sb = new StringBuilder();
            // lengths across the 64-character blocks and the 8192-character slice; every other text mostly
            // ASCII, whose blocks the census kernel counts, between blocks with other characters
            int pieces = round < 100 ? rnd.nextInt(200) : rnd.nextInt(30000);
            boolean mostlyAscii = round % 2 == 1;
            for (int k = 0; k < pieces; k++) {
                if (mostlyAscii && rnd.nextInt(300) != 0) {
                    sb.append((char) rnd.nextInt(128));
                } else {
                    sb.append(PIECES[rnd.nextInt(PIECES.length)]);
                }
            }
            String text = sb.toString();
            double[] got = new double[7];
            step.extract(text, got);
            assertArrayEquals(reference(text), got, 0.0, "text of " + text.length() + " chars, round " + round);
        }
    }

    private static double[] reference(String text) {
        long len = 0;
        long space = 0;
        long nonAlphaDigit = 0;
        long digit = 0;
        long upper = 0;
        long ellipsis = 0;
        long punct = 0;
        int dots = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            len++;
            space += PyText.isSpace(c) ? 1 : 0;
            digit += PyText.isDigit(c) ? 1 : 0;
            nonAlphaDigit += PyText.isDigit(c) || PyText.isAlpha(c) ? 0 : 1;
            upper += PyText.isUpper(c) ? 1 : 0;
            punct += DocStats.isPunctuation(c) ? 1 : 0;
            if (c == '.') {
                if (++dots == 3) {
                    ellipsis += 3;
                    dots = 0;
                }
            } else {
                dots = 0;
                ellipsis += c == '…' ? 1 : 0;
            }
        }
        double n = len;
        return len == 0 ? new double[7] : new double[] {len, space / n, nonAlphaDigit / n, digit / n, upper / n,
            ellipsis / n, punct / n};
    }
}
