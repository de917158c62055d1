package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Python 3.11 str predicates, expected values printed by CPython. */
class PyTextTest {
    @Test
    void wordCasePredicatesMatchPython() {
        Object[][] cases = {
                {"Hello", false, true}, {"HELLO", true, false}, {"Hello World", false, true}, {"hello", false, false},
                {"ǅemal", false, true}, {"ǄEMAL", true, false}, {"Ⅻ", true, true}, {"ⓐbc", false, false},
                {"A1", true, true}, {"1A", true, true}, {"", false, false}, {"123", false, false},
                {"Dogs!", false, true}, {"O'Neil", false, true}, {"e.g.", false, false}, {"ÉCOLE", true, false},
                {"ß", false, false}, {"Σ", true, true},
        };
        for (Object[] c : cases) {
            String w = (String) c[0];
            assertEquals(c[1], PyText.isUpperWord(w), "'" + w + "'.isupper()");
            assertEquals(c[2], PyText.isTitleWord(w), "'" + w + "'.istitle()");
        }
    }

    /**
     * Code points Unicode 15 and 16 assigned are unassigned to Python 3.11 (Unicode 14), which datatrove ran on;
     * Java 25 knows them. Expected values printed by CPython 3.11.7. Before, Sluice took Java's answer: digit_ratio
     * 0.4 for datatrove's 0.0 on "\U0001E4F0\U0001E4F1 ab".
     */
    @Test
    void charactersNewerThanUnicode14AreUnassignedAsInPython() {
        int[] newer = {0x1E4F0 /* Nag Mundari digit zero */, 0x2EBF0 /* CJK extension I */, 0x1C89 /* Cyrillic TJE */,
            0x11F50 /* Kawi digit */, 0x31350 /* CJK extension H */};
        for (int cp : newer) {
            assertEquals(false, PyText.isDigit(cp) || PyText.isAlpha(cp) || PyText.isUpper(cp), Integer.toHexString(cp));
        }
        assertEquals(false, PyText.isPunct("\u1B4E", 0, 1), "Balinese punctuation of Unicode 16, Cn in 14");
        assertEquals(false, PyText.hasLetter(new String(Character.toChars(0x2EBF0))));
        assertEquals(true, PyText.isUpperWord("A\u1C8A"), "'A\\u1c8a'.isupper(): the unassigned character is caseless");
        assertEquals(false, PyText.isTitleWord("\u1C89\u1C8A"));
        // modifier letters Java calls lower case since Unicode 15, Python 3.11 not: 'A\ua7f2'.isupper() is True
        assertEquals(true, PyText.isUpperWord("A\uA7F2"));
        assertEquals(true, PyText.isUpperWord("AB\uAB69"));
        assertEquals(false, PyText.isTitleWord("AB\uAB69"));
        // unchanged for what Unicode 14 has: a Devanagari digit, a CJK ideograph, a capital
        assertEquals(true, PyText.isDigit(0x0967));
        assertEquals(true, PyText.isAlpha(0x4E2D));
        assertEquals(true, PyText.isUpper(0x0416));
        // the table is what it says: every listed code point is assigned in Java's tables
        assertEquals(10_301, Unicode14.count());
        int assigned = 0;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (Unicode14.newer(cp) && Character.getType(cp) != Character.UNASSIGNED) {
                assigned++;
            }
        }
        assertEquals(10_301, assigned);
    }

    @Test
    void splitlinesCountMatchesPython() {
        Object[][] cases = {{"", 0}, {"a", 1}, {"a\n", 1}, {"a\r\nb", 2}, {"a\rb\n\n", 3}, {"\u001c", 1},
                {"a\u2028b\u0085c", 3}, {"\n", 1}};
        for (Object[] c : cases) {
            assertEquals(c[1], PyText.countLines((String) c[0]), "len(" + c[0] + ".splitlines())");
        }
    }

    @Test
    void whitespaceAndDigitsAreCPythons() {
        List<Integer> spaces = new ArrayList<>();
        List<Integer> lineBreaks = new ArrayList<>();
        for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
            if (PyText.isSpace(c)) {
                spaces.add(c);
            }
            if (c <= 0xFFFF && PyText.isLineBreak((char) c)) {
                lineBreaks.add(c);
            }
        }
        assertEquals(List.of(0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029), lineBreaks);
        assertEquals(List.of(0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
                0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f,
                0x3000), spaces);
        assertEquals(true, PyText.isDigit('²'));
        assertEquals(true, PyText.isDigit('①'));
        assertEquals(true, PyText.isDigit('٣'));
        assertEquals(false, PyText.isDigit('½'));
        assertEquals(false, PyText.isDigit('Ⅻ'));
        assertEquals("a b", PyText.strip("\u3000 a b\u00a0\n"));
    }

    /**
     * Lowercasing in pieces equals lowercasing the whole text, on random text dense in the characters
     * whose lowercase depends on context or has two characters (capital sigma, dotted I), around
     * whitespace, punctuation, marks and digits; and a long text dense in dotted I stays fast enough to
     * finish (it took more than ten minutes for 50 MB as one piece).
     */
    @Test
    void lowerInPiecesEqualsTheWholeText() {
        String[] atoms = {"Σ", "İ", "ΑΣ", "σ", "a", "B", " ", "\n", "  ", ".", "'", "\u0301", "1", "ΣΑ", "É", "\u00a0", "ς", "Iİ"};
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        for (int t = 0; t < 300; t++) {
            StringBuilder sb = new StringBuilder();
            int len = 200 + rnd.nextInt(3000);
            while (sb.length() < len) {
                sb.append(atoms[rnd.nextInt(atoms.length)]);
            }
            String text = sb.toString();
            assertEquals(text.toLowerCase(java.util.Locale.ROOT), PyText.lower(text), "case " + t);
        }
        String turkish = "İstanbul İzmir Iğdır ".repeat(200_000); // 4.2 MB, 400,000 dotted capital I
        String lowered = PyText.lower(turkish);
        assertEquals("i\u0307stanbul i\u0307zmir iğdır ", lowered.substring(0, 23));
        assertEquals(turkish.length() + 400_000, lowered.length());
    }

    @Test
    void wordCountsAreThoseOfSplit() {
        // len(s.split()), printed by CPython
        Object[][] cases = {{"", 0}, {"  ", 0}, {"a", 1}, {" a  b ", 2}, {"a\u00a0b\u3000c\u001cd\u0085e", 5},
                {"\ud83d\ude00 \ud83d\ude00\ud83d\ude00", 2}, {"x\u200bY", 1}, {"one two three four", 4}};
        for (Object[] c : cases) {
            String s = (String) c[0];
            int words = (Integer) c[1];
            assertEquals(words, PyText.countWords(s), s);
            for (int limit = 1; limit <= 5; limit++) {
                assertEquals(Math.min(words, limit), PyText.countWords(s, limit), s + " up to " + limit);
            }
        }
    }

    @Test
    void longWordsAreCountedInCodePoints() {
        // any(len(w) > max for w in s.split()), as CPython answers for these (surrogates as json.loads makes them)
        Object[][] cases = {{"", 0, false}, {"ab", 1, true}, {"ab c", 2, false}, {"a\u00a0bc", 2, false},
                {"\ud83d\ude00\ud83d\ude00 x", 2, false}, {"\ud83d\ude00\ud83d\ude00\ud83d\ude00", 2, true},
                {"\ud83d\ud83d\ude00", 1, true}, {"\ud83d\ude00\ude00", 2, false}, {"\ud83d\ude00\ude00", 1, true}};
        for (Object[] c : cases) {
            assertEquals(c[2], PyText.hasWordLongerThan((String) c[0], (Integer) c[1]), c[0] + " over " + c[1]);
        }
    }
}
