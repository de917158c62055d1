package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** regex_filter decides as datatrove's RegexFilter does with Python's re. */
class RegexFilterTest {
    private static String decide(String regex, String text) {
        return new RegexFilter(StepArgs.of(Map.of("regex", regex))).filter(new Document("d", text, null)).reason();
    }

    @Test
    void patternsMeanWhatTheyMeanInPythonsRe() {
        // each was kept before (Java's ASCII \w and \d, '.' not matching '\r'), and dropped by datatrove
        assertEquals("regex_match", decide("^\\w+ \\w+$", "Привет мир"));
        assertEquals("regex_match", decide("\\d{3}", "٣٤٥"));
        assertEquals("regex_match", decide("foo.bar", "foo\rbar"));
        assertEquals(null, decide("foo.bar", "foo\nbar"));
        assertEquals(null, decide("^bar", "foo\nbar"), "no MULTILINE: ^ is the start of the text");
        assertEquals(null, decide("(?m)^bar", "foo\rbar"), "only \\n ends a line, not \\r");
        // Python's named groups, which Java refused as "Unknown inline modifier"
        assertEquals("regex_match", decide("(?P<w>ab)c(?P=w)", "xxabcab"));
        assertEquals(null, decide("(?P<w>ab)c(?P=w)", "xxabcac"));
        assertEquals("regex_match", decide("(?P<first_name>\\w+) (?P=first_name)", "Anna Anna"), "underscored names");
        assertEquals(null, decide("\\(?P<", "a<b"), "an escaped parenthesis stays literal: '(' optional, then 'P<'");
        assertEquals("regex_match", decide("\\\\(?P<x>a)", "\\a"), "an escaped backslash, then a named group");
        assertEquals(null, decide("end\\Z", "the end\n"), "Python's \\Z is the very end");
        assertEquals("regex_match", decide("end$", "the end\n"), "$ may match before a final newline, as in Python");
        // Python's word characters are letters, numbers and '_': a combining mark is none, '²' is one
        assertEquals(null, decide("^\\w+$", "e\u0301"));
        assertEquals("regex_match", decide("^\\w+$", "m\u00b2"));
        assertEquals("regex_match", decide("\\bx", "\u0301x"), "a word starts after a combining mark");
        assertEquals(null, decide("\\bx", "\u00b2x"));
        assertEquals("regex_match", decide("a\\Bb", "ab"));
        assertEquals("regex_match", decide("[\\w-]+@", "x\u00b2-y@"), "\\w inside a class");
        assertEquals("regex_match", decide("^[\\W]$", "\u0301"));
        // in a Python class '[' and '&&' are literals (Java nests classes and intersects), ']' first is a member,
        // and \b is a backspace
        assertEquals("regex_match", decide("[[]", "a[b"));
        assertEquals("regex_match", decide("[a&&b]", "&"));
        assertEquals("regex_match", decide("[]x]", "]"));
        assertEquals("regex_match", decide("[^]x]", "y"));
        assertEquals("regex_match", decide("[\\b]", "\b"));
        // lookbehinds after a supplementary character (Java saw only its low half)
        assertEquals("regex_match", decide("(?<=\\w)x", "\ud840\udc00x"));
        assertEquals("regex_match", decide("\\b$", "\ud840\udc00"));
        assertEquals(null, decide("\ud840\udc00\\b", "\ud840\udc00a"));
        assertEquals(null, decide("(?<!\\d)x", "\ud835\udfcex"), "U+1D7CE is a digit");
        assertEquals("regex_match", decide("(?<=\\W)x", "\ud83d\ude00x"), "an emoji is no word character");
        assertEquals("regex_match", decide("[^\\s]", "a"));
        assertEquals(null, decide("^[^\\s\\w]+$", " a"));
        assertEquals("regex_match", decide("^[\\sa]+$", " a\u001c"));
        // a '{' that starts no quantifier is a literal (Java refused the pattern), and {,n} is {0,n}
        assertEquals("regex_match", decide("function\\s*\\(\\)\\s*{", "function () {"));
        assertEquals("regex_match", decide("{{.*}}", "a {{ x }} b"));
        assertEquals("regex_match", decide("^a{,2}b$", "aab"));
        assertEquals(null, decide("^a{,2}b$", "aaab"));
        assertEquals("regex_match", decide("a{x}", "a{x}"));
        assertEquals("regex_match", decide("^a{2}$", "aa"));
        // Python's spaces (U+001C-U+001F), \v (the vertical tab), octal and \U escapes, comments
        assertEquals("regex_match", decide("a\\sb", "a\u001cb"));
        assertEquals(null, decide("\\v", "\n"));
        assertEquals("regex_match", decide("\\v", "\u000b"));
        assertEquals("regex_match", decide("\\377", "\u00ff"));
        assertEquals("regex_match", decide("a\\0", "a\u0000"));
        assertEquals("regex_match", decide("\\U00000041(?#the letter A)b", "Ab"));
        // under (?x) a space or '#' in a class is a member; after (?m), ^ matches after a final newline too
        assertEquals("regex_match", decide("(?x)a [ #] b", "a b"));
        assertEquals("regex_match", decide("(?x)a [ #] b", "a#b"));
        assertEquals("regex_match", decide("(?m)^$", "a\n"));
        assertEquals("regex_match", decide("(?m)\\n^", "\n"));
        assertEquals(null, decide("\\n^", "\n"));
        assertEquals("regex_match", decide("(?m)^", ""), "an empty text is a line's start too");
        // \N{...}, an octal escape in a class, and a supplementary character in a look-behind (Java refused the
        // first two; the third, written \U0001F600, matched nothing)
        assertEquals("regex_match", decide("a\\N{EM DASH}b", "a\u2014b"));
        assertEquals("regex_match", decide("[\\N{em dash}]", "\u2014"));
        assertEquals("regex_match", decide("^[\\1]$", "\u0001"));
        assertEquals("regex_match", decide("^[\\18]+$", "\u00018"));
        assertEquals("regex_match", decide("(?<=\\U0001F600)x", "\ud83d\ude00x"));
        assertEquals("regex_match", decide("(?<=\\N{GRINNING FACE})x", "\ud83d\ude00x"));
    }
}
