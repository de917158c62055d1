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
}
