package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job file whose regex_filter pattern Python 3.11's re refuses is refused, with Python's message, as datatrove
 * fails at start-up with re.error; one Python takes is not (before, Java's reading ran many of the first, "\z"
 * and "(?<=ab|c)" among them). Each message here is what python3.11 -c "import re; re.compile(...)" says.
 */
class RegexFilterRefusalTest {
    private static final String WHERE = "job.yaml:3: stages[0] (a).steps[1] (regex_filter): 'regex' ";
    private static final String REFUSED = WHERE + "is not a valid Python regular expression (datatrove's re.compile refuses it): ";

    @TempDir
    Path dir;

    /** The pattern, and what Python's re.compile says of it. */
    private static final String[][] PYTHON_REFUSES = {
        // escapes Java has and Python does not
        {"abc\\z", "bad escape \\z at position 3"},
        {"\\p{L}", "bad escape \\p at position 0"},
        {"[\\p{L}]", "bad escape \\p at position 1"},
        {"\\Qa.b\\E", "bad escape \\Q at position 0"},
        {"\\e", "bad escape \\e at position 0"},
        {"\\k<a>", "bad escape \\k at position 0"},
        {"\\h", "bad escape \\h at position 0"},
        {"\\x{41}", "incomplete escape \\x at position 0"},
        {"\\u00e", "incomplete escape \\u00e at position 0"},
        {"\\U00110000", "bad escape \\U00110000 at position 0"},
        {"\\400", "octal escape value \\400 outside of range 0-0o377 at position 0"},
        {"[\\8]", "bad escape \\8 at position 1"},
        {"[\\A]", "bad escape \\A at position 1"},
        {"\\", "bad escape (end of pattern) at position 0"},
        {"\\N", "missing { at position 2"},
        {"\\N{\u00e9}", "undefined character name '\u00e9' at position 0"},
        // look-behinds of no fixed width (Java takes a bounded one)
        {"(?<=ab|c)x", "look-behind requires fixed-width pattern"},
        {"(?<!a*)b", "look-behind requires fixed-width pattern"},
        {"(?<=x(?<=a|bc))y", "look-behind requires fixed-width pattern"},
        // groups and references
        {"(?<name>x)", "unknown extension ?<n at position 1"},
        {"(?P<1a>x)", "bad character in group name '1a' at position 4"},
        {"(?P<a>x)(?P<a>y)", "redefinition of group name 'a' as group 2; was group 1 at position 12"},
        {"(?P=missing)", "unknown group name 'missing' at position 4"},
        {"(?P<a>(?P=a))", "cannot refer to an open group at position 10"},
        {"\\1", "invalid group reference 1 at position 1"},
        {"(a\\1)", "cannot refer to an open group at position 2"},
        {"(a)\\2", "invalid group reference 2 at position 4"},
        {"(?<=(a)\\1)", "cannot refer to group defined in the same lookbehind subpattern at position 9"},
        {"(?(0)a)", "bad group number at position 3"},
        {"(?(-1)a)", "bad character in group name '-1' at position 3"},
        {"(?(2)a)(b)", "invalid group reference 2 at position 3"},
        {"(?(a)x)", "unknown group name 'a' at position 3"},
        {"(a)(?(1)b|c|d)", "conditional backref with more than two branches at position 11"},
        // repeats
        {"a**", "multiple repeat at position 2"},
        {"a*?+", "multiple repeat at position 3"},
        {"a{2}{3}", "multiple repeat at position 4"},
        {"^*", "nothing to repeat at position 1"},
        {"\\b+", "nothing to repeat at position 2"},
        {"*a", "nothing to repeat at position 0"},
        {"a|*b", "nothing to repeat at position 2"},
        {"a{2,1}", "min repeat greater than max repeat at position 2"},
        {"a{4294967295}", "the repetition number is too large"},
        // flags
        {"a(?i)", "global flags not at the start of the expression at position 1"},
        {"a|(?i)b", "global flags not at the start of the expression at position 2"},
        {"((?i)a)", "global flags not at the start of the expression at position 1"},
        {"(?i-s)a", "missing : at position 5"},
        {"(?L)a", "bad inline flags: cannot use 'L' flag with a str pattern at position 3"},
        {"(?au)a", "bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4"},
        {"(?a)(?u)a", "ASCII and UNICODE flags are incompatible"},
        {"(?i-i:a)", "bad inline flags: flag turned on and off at position 5"},
        {"(?d)a", "unknown extension ?d at position 1"},
        {"(?U)a", "unknown extension ?U at position 1"},
        {"(?t:a)", "bad inline flags: cannot turn on global flag at position 3"},
        // brackets
        {"(a", "missing ), unterminated subpattern at position 0"},
        {"a)", "unbalanced parenthesis at position 1"},
        {"[]", "unterminated character set at position 0"},
        {"[^]", "unterminated character set at position 0"},
        {"[z-a]", "bad character range z-a at position 1"},
        {"[\\w-z]", "bad character range \\w-z at position 1"},
        {"(?#a", "missing ), unterminated comment at position 0"},
        {"(?", "unexpected end of pattern at position 2"},
        {"(?P", "unexpected end of pattern at position 3"},
        {"ab\n[c", "unterminated character set at position 3 (line 2, column 1)"},
    };

    /** Patterns Python takes, some of them refused by Java as written or read otherwise by it. */
    private static final String[] PYTHON_TAKES = {
        "(?<=ab|cd)x", "(?<!a|b)c", "(?<=(?:ab){2}|abcd)x", "(?<=\\w\\d|[ab]c)x", "(?<=a(?=bc*))", "(?<=\\b)a", "(?<=a{2})",
        "(?<=(?P<g>a))b(?P=g)", "a*+", "a++b", "a?+", "a{1,2}+", "(?>ab|a)c", "a{,}", "a{,2}b", "a{x}", "{}", "x{1,2", "a{2}?",
        "a{0}", "(?:)*", "()*", "(?=a)*", "a|", "|", "[]a]", "[^]a]", "[a-]", "[-a]", "[\\d-]", "[[]", "[a&&b]", "(?i)a",
        "(?x) (?i)a", "(?#c)(?i)a", "(?i:a)(?-i:b)", "(?x:a b)", "(?s-i:.)", "(?u)\\w", "(?x)a # (", "(?x)[ #]",
        "(?P<first_name>\\w+) (?P=first_name)", "(a)\\1", "(a)|b\\1", "\\0", "\\012", "\\377", "[\\1]", "\\N{EM DASH}",
        "[\\N{em dash}]", "\\U0001F600", "(?<=\\U0001F600)x", "\\u00e9", "\\x41", "\\-", "\\\u00e9", "\\Z", "\\A$", "(?m)^$",
        "ab\ncd",
    };

    /** Patterns Python takes that Sluice does not run, and what it says of each. */
    private static final String[][] NOT_RUN = {
        {"(a)(?(1)b|c)", "the conditional group (?(1)...) at position 3 has no equivalent in Java's regex engine (Python's re takes it)"},
        {"(?a)\\w", "the ASCII-only flag (?a) at position 0 is not supported: Sluice reads \\w, \\d, \\s and \\b as Unicode"
                + " (Python's re takes it)"},
        {"(a)(?<=\\1)", "the group reference at position 7, in a look-behind, is not supported: Java's regex engine cannot tell"
                + " its width (Python's re takes it)"},
        {"\\N{LINE FEED}", "the character name 'LINE FEED' at position 0 is unknown here (Sluice knows Unicode's names, not"
                + " aliases such as LINE FEED nor the Hangul and CJK names made of parts)"},
    };

    private Path job(String regex) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, "stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {regex_filter: {regex: " + yamlString(regex) + "}}]\n");
        return f;
    }

    /** {@code s} as a double-quoted YAML string. */
    private static String yamlString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    private String refusal(String regex) throws IOException {
        Path f = job(regex);
        return assertThrows(JobException.class, () -> JobFile.load(f), regex).getMessage();
    }

    @Test
    void patternsPythonRefusesAreRefusedWithPythonsMessage() throws IOException {
        for (String[] row : PYTHON_REFUSES) {
            assertEquals(REFUSED + row[1], refusal(row[0]), row[0]);
        }
    }

    @Test
    void patternsPythonTakesAreTaken() throws IOException {
        for (String regex : PYTHON_TAKES) {
            Path f = job(regex);
            assertDoesNotThrow(() -> JobFile.load(f), regex);
        }
    }

    @Test
    void whatPythonTakesAndSluiceDoesNotRunIsSaidSo() throws IOException {
        for (String[] row : NOT_RUN) {
            assertEquals(WHERE + "cannot be run by Sluice: " + row[1], refusal(row[0]), row[0]);
        }
        // Java's own limits are told in Java's words
        assertEquals(WHERE + "is refused by Java's regex engine, which Sluice runs it with: Illegal repetition range",
                refusal("a{4294967294}"));
        // before: "'regex' is required", with the key there
        assertEquals(WHERE + "is empty, which matches every document (datatrove's regex_filter drops them all); give a"
                + " pattern", refusal(""));
    }

    @Test
    void aRefusalIsToldWithTheFilesOtherProblems() throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, "stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}, {regex_filter: {regex: 'a\\z'}}]\ntasks: 0\n");
        assertEquals("2 problems:\n  job.yaml:4: 'tasks' must be a positive integer, got 0\n  " + REFUSED + "bad escape \\z at position 1",
                assertThrows(JobException.class, () -> JobFile.load(f)).getMessage());
    }
}
