package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** datatrove's simplify_text, case by case (expected values follow its Python semantics). */
class TextNormalizerTest {
    @Test
    void numbersBecomeZeroBeforePunctuationIsRemoved() {
        // "1,000,000": "1,000" is one number, then ",000" leaves a comma and a second number
        assertEquals("hello world it s 0 and 0 0", TextNormalizer.simplify("Hello, World!  It's 3.14 and 1,000,000."));
        assertEquals("0 apples", TextNormalizer.simplify("\u0663\u066B\u0665 apples"));
        assertEquals("0 0", TextNormalizer.simplify("12. 3"));
    }

    /** A Nag Mundari digit (Unicode 15) is no digit to Python 3.11's re, which datatrove ran on: kept, not made 0. */
    @Test
    void digitsNewerThanUnicode14AreNotNumbers() {
        assertEquals("a \uD839\uDCF1 b", TextNormalizer.simplify("a \uD839\uDCF1 b"));
        assertEquals("a 0 b", TextNormalizer.simplify("a \u0967 b"), "a Devanagari digit (Unicode 1.1) is one");
    }

    @Test
    void accentsAndPythonWhitespace() {
        assertEquals("cafe naive angstrom", TextNormalizer.simplify("Café\u00a0naïve\tÅngström"));
        assertEquals("unicode", TextNormalizer.simplify("«Ünïcödé»"));
        // a lone combining mark between spaces disappears after whitespace was collapsed: two spaces stay
        assertEquals("x  y", TextNormalizer.simplify("x \u0301 y"));
        assertEquals("", TextNormalizer.simplify(" \u2003 ... \n"));
    }

    @Test
    void configSwitchesSteps() {
        TextNormConfig keepCase = new TextNormConfig(false, true, true, true, true, false, false);
        assertEquals("Hello World", TextNormalizer.simplify("Hello,   World", keepCase));
        TextNormConfig weekdays = new TextNormConfig(true, true, true, true, true, true, true);
        assertEquals("on WEEKDAY 0 MONTH", TextNormalizer.simplify("On Monday 5 March", weekdays));
    }

    /**
     * Mark removal character by character equals NFD of the whole text with the non-spacing marks dropped
     * (datatrove's two lines), for every BMP character alone, after a base with a mark, and between marks
     * of several combining classes, spacing and non-spacing (U+302E is a spacing mark of class 224).
     */
    @Test
    void marksDroppedPerCharacterAsFromTheWholeText() {
        String[][] around = {{"", ""}, {"a\u0301", ""}, {"", "\u0323"}, {"o\u0315", "\u031B\u0334"}, {"\u05B0", "\u0301"},
            {"b\u302E", "\u302F\u0323"}, {"\u00E9", "\uD835\uDC00"}};
        int checked = 0;
        for (int c = 0; c < 0x10000; c++) {
            for (String[] xy : around) {
                String text = xy[0] + (char) c + xy[1];
                if (Character.isHighSurrogate(text.charAt(text.length() - 1)) || Character.isLowSurrogate(text.charAt(0))) {
                    continue; // halves of a pair are only looked at together
                }
                StringBuilder expected = new StringBuilder();
                TextNormalizer.appendWithoutMarks(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFD), expected);
                assertEquals(expected.toString(), TextNormalizer.stripMarks(text), () -> "U+" + Integer.toHexString(text.charAt(xy[0].length())) + " in " + text);
                checked++;
            }
        }
        assertEquals(true, checked > 400_000, "cases: " + checked);
    }
}
