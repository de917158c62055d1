package io.sluice.text;

import static io.sluice.text.SpacyCharClasses.ALPHA;
import static io.sluice.text.SpacyCharClasses.ALPHA_LOWER;
import static io.sluice.text.SpacyCharClasses.ALPHA_UPPER;
import static io.sluice.text.SpacyCharClasses.DOT_SUFFIX_AFTER;
import static io.sluice.text.SpacyCharClasses.ICONS;
import static io.sluice.text.SpacyCharClasses.PREFIX_CHAR;
import static io.sluice.text.SpacyCharClasses.QUOTES;
import static io.sluice.text.SpacyCharClasses.SUFFIX_CHAR;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * spaCy's English prefix, suffix and infix rules (spacy/lang/punctuation.py, spacy/lang/en/punctuation.py)
 * as hand-written scanners that give exactly the match Python's {@code re} finds with spaCy's
 * compiled patterns:
 * <ul>
 *   <li>prefix: {@code re.search("^a|^b|...")}, the first alternative that matches at the start wins;</li>
 *   <li>suffix: {@code re.search("a$|b$|...")}, the match that starts leftmost wins, i.e. the longest
 *       alternative ending at the end (lookbehinds cannot see before the searched substring);</li>
 *   <li>infix: {@code re.finditer}, scanning left to right, alternatives tried in order.</li>
 * </ul>
 * All positions are UTF-16 indices into {@code s}; {@code [from, to)} is the substring spaCy searches.
 * {@code s} may be longer than the text (the tokenizer's reused array); reading a code point that way
 * is safe because the character after the text is never a low surrogate (see {@link ChunkMemo#charsOf}).
 */
final class PunctuationRules {
    private PunctuationRules() {
    }

    // ---- prefixes ----

    /** Length of the prefix split off {@code s[from:to]}, 0 if none. */
    static int prefixLength(char[] s, int from, int to) {
        if (from >= to) {
            return 0;
        }
        char c = s[from];
        switch (c) {
            case '.':
                return from + 1 < to && s[from + 1] == '.' ? dotRun(s, from, to) : 0;
            case '+': // "+" unless it is the sign of a number
                return from + 1 < to && isAsciiDigit(s[from + 1]) ? 0 : 1;
            case 'U':
                return from + 3 <= to && startsWith(s, from, "US$") ? 3 : 0;
            case 'C', 'A':
                return from + 1 < to && s[from + 1] == '$' ? 2 : 0;
            default:
                int cp = Character.codePointAt(s, from);
                return PREFIX_CHAR.contains(cp) ? Character.charCount(cp) : 0;
        }
    }

    // ---- suffixes ----

    /** When a conditional suffix alternative applies, looking at the text before it (within the searched part). */
    private enum Before {
        ANYTHING, ASCII_DIGIT, DEGREE_SIGN_AND_TEMPERATURE_UNIT, DOT_SUFFIX_CLASS, TWO_UPPER_CASE_LETTERS;

        boolean holds(char[] s, int from, int pos) {
            return switch (this) {
                case ANYTHING -> true;
                case ASCII_DIGIT -> pos > from && isAsciiDigit(s[pos - 1]);
                case DEGREE_SIGN_AND_TEMPERATURE_UNIT -> pos - 2 >= from && s[pos - 2] == '\u00b0'
                        && "FfCcKk".indexOf(s[pos - 1]) >= 0;
                case DOT_SUFFIX_CLASS -> pos > from && DOT_SUFFIX_AFTER.contains(Character.codePointBefore(s, pos));
                case TWO_UPPER_CASE_LETTERS -> {
                    if (pos <= from) {
                        yield false;
                    }
                    int last = Character.codePointBefore(s, pos);
                    int lastStart = pos - Character.charCount(last);
                    yield lastStart > from && ALPHA_UPPER.contains(last)
                            && ALPHA_UPPER.contains(Character.codePointBefore(s, lastStart));
                }
            };
        }
    }

    private record SuffixAlternative(String text, Before before) {
    }

    /** Units split off after a number ("10km" -> "10" "km"), spaCy's char_classes UNITS. */
    private static final String UNITS = "km km\u00b2 km\u00b3 m m\u00b2 m\u00b3 dm dm\u00b2 dm\u00b3 cm cm\u00b2 cm\u00b3"
            + " mm mm\u00b2 mm\u00b3 ha \u00b5m nm yd in ft kg g mg \u00b5g t lb oz m/s km/h kmh mph hPa Pa mbar mb MB"
            + " kb KB gb GB tb TB T G M K % \u043a\u043c \u043a\u043c\u00b2 \u043a\u043c\u00b3 \u043c \u043c\u00b2"
            + " \u043c\u00b3 \u0434\u043c \u0434\u043c\u00b2 \u0434\u043c\u00b3 \u0441\u043c \u0441\u043c\u00b2"
            + " \u0441\u043c\u00b3 \u043c\u043c \u043c\u043c\u00b2 \u043c\u043c\u00b3 \u043d\u043c \u043a\u0433 \u0433"
            + " \u043c\u0433 \u043c/\u0441 \u043a\u043c/\u0447 \u043a\u041f\u0430 \u041f\u0430 \u043c\u0431\u0430\u0440"
            + " \u041a\u0431 \u041a\u0411 \u043a\u0431 \u041c\u0431 \u041c\u0411 \u043c\u0431 \u0413\u0431 \u0413\u0411"
            + " \u0433\u0431 \u0422\u0431 \u0422\u0411"
            // spaCy's list lacks a space between the Cyrillic and the Arabic units, giving this joint entry
            + " \u0442\u0431\u0643\u0645"
            + " \u0643\u0645\u00b2 \u0643\u0645\u00b3 \u0645 \u0645\u00b2 \u0645\u00b3 \u0633\u0645 \u0633\u0645\u00b2"
            + " \u0633\u0645\u00b3 \u0645\u0645 \u0645\u0645\u00b2 \u0645\u0645\u00b3 \u0643\u0645 \u063a\u0631\u0627\u0645"
            + " \u062c\u0631\u0627\u0645 \u062c\u0645 \u0643\u063a \u0645\u0644\u063a \u0643\u0648\u0628"
            + " \u0627\u0643\u0648\u0627\u0628";

    /** Currency symbols split off after a number ("5$" -> "5" "$"), spaCy's char_classes CURRENCY. */
    private static final String CURRENCY = "$ \u00a3 \u20ac \u00a5 \u0e3f US$ C$ A$ \u20bd \ufdfc \u20b4 \u20a0 \u20a1"
            + " \u20a2 \u20a3 \u20a4 \u20a5 \u20a6 \u20a7 \u20a8 \u20a9 \u20aa \u20ab \u20ad \u20ae \u20af \u20b0"
            + " \u20b1 \u20b2 \u20b3 \u20b5 \u20b6 \u20b7 \u20b8 \u20b9 \u20ba \u20bb \u20bc \u20be \u20bf";

    /**
     * Suffix alternatives that are longer than one character or depend on what precedes them, indexed by
     * their last UTF-16 unit, longest first. Unconditional one-character suffixes are {@code SUFFIX_CHAR}.
     */
    private static final SuffixAlternative[][] SUFFIXES_BY_LAST_CHAR = buildSuffixIndex();

    private static SuffixAlternative[][] buildSuffixIndex() {
        List<SuffixAlternative> all = new ArrayList<>();
        all.add(new SuffixAlternative("\u2026\u2026", Before.ANYTHING));
        for (String clitic : List.of("'s", "'S", "\u2019s", "\u2019S")) {
            all.add(new SuffixAlternative(clitic, Before.ANYTHING));
        }
        all.add(new SuffixAlternative("+", Before.ASCII_DIGIT));
        all.add(new SuffixAlternative(".", Before.DEGREE_SIGN_AND_TEMPERATURE_UNIT));
        for (String currency : CURRENCY.split(" ")) {
            all.add(new SuffixAlternative(currency, Before.ASCII_DIGIT));
        }
        for (String unit : UNITS.split(" ")) {
            all.add(new SuffixAlternative(unit, Before.ASCII_DIGIT));
        }
        all.add(new SuffixAlternative(".", Before.DOT_SUFFIX_CLASS));
        all.add(new SuffixAlternative(".", Before.TWO_UPPER_CASE_LETTERS));
        all.sort(Comparator.comparingInt((SuffixAlternative a) -> a.text().length()).reversed());
        SuffixAlternative[][] index = new SuffixAlternative[65536][];
        for (SuffixAlternative a : all) {
            char last = a.text().charAt(a.text().length() - 1);
            SuffixAlternative[] old = index[last] == null ? new SuffixAlternative[0] : index[last];
            SuffixAlternative[] grown = java.util.Arrays.copyOf(old, old.length + 1);
            grown[old.length] = a;
            index[last] = grown;
        }
        return index;
    }

    /** Length of the suffix split off {@code s[from:to]}, 0 if none. */
    static int suffixLength(char[] s, int from, int to) {
        if (from >= to) {
            return 0;
        }
        int dots = 0;
        while (to - dots - 1 >= from && s[to - dots - 1] == '.') {
            dots++;
        }
        if (dots >= 2) {
            return dots; // an ellipsis "..", "...": nothing else ending in '.' starts further left
        }
        SuffixAlternative[] candidates = SUFFIXES_BY_LAST_CHAR[s[to - 1]];
        if (candidates != null) {
            for (SuffixAlternative a : candidates) {
                int length = a.text().length();
                if (length <= to - from && startsWith(s, to - length, a.text()) && a.before().holds(s, from, to - length)) {
                    return length; // longest first, so this one starts leftmost
                }
            }
        }
        int cp = Character.codePointBefore(s, to);
        return SUFFIX_CHAR.contains(cp) ? Character.charCount(cp) : 0;
    }

    // ---- infixes ----

    private static final String[] HYPHENS = {"-", "\u2013", "\u2014", "--", "---", "\u2014\u2014", "~"};

    /**
     * Length of the infix match starting at {@code i} within {@code s[from:to]}, 0 if none. Alternatives in
     * spaCy's order: ellipses, icons, arithmetic signs between digits, '.' between a lower-case and an
     * upper-case letter, ',' between letters, hyphens after a letter or digit and before a letter,
     * {@code : < > = /} after a letter or digit and before a letter.
     */
    static int infixLength(char[] s, int from, int to, int i) {
        char c = s[i];
        if (c == '.') {
            if (i + 1 < to && s[i + 1] == '.') {
                return dotRun(s, i, to);
            }
            return i > from && i + 1 < to && isLowerOrQuote(Character.codePointBefore(s, i)) && isUpperOrQuote(Character.codePointAt(s, i + 1))
                    ? 1 : 0;
        }
        if (c == '\u2026') {
            return 1;
        }
        int cp = Character.codePointAt(s, i);
        if (ICONS.contains(cp)) {
            return Character.charCount(cp);
        }
        switch (c) {
            case '+', '*', '^':
                return signBetweenDigits(s, from, to, i) ? 1 : 0;
            case '-':
                return signBetweenDigits(s, from, to, i) ? 1 : hyphenLength(s, from, to, i);
            case '\u2013', '\u2014', '~':
                return hyphenLength(s, from, to, i);
            case ',':
                return i > from && i + 1 < to && ALPHA.contains(Character.codePointBefore(s, i)) && ALPHA.contains(Character.codePointAt(s, i + 1))
                        ? 1 : 0;
            case ':', '<', '>', '=', '/':
                return afterLetterOrDigit(s, from, i) && i + 1 < to && ALPHA.contains(Character.codePointAt(s, i + 1)) ? 1 : 0;
            default:
                return 0;
        }
    }

    /** Could {@code c} start an infix match? A cheap pre-filter for the scan loop. */
    static boolean mayStartInfix(char c) {
        return MAY_START_INFIX[c];
    }

    private static final boolean[] MAY_START_INFIX = new boolean[65536];

    static {
        for (char c : ".\u2026+*^-\u2013\u2014~,:<>=/".toCharArray()) {
            MAY_START_INFIX[c] = true;
        }
        for (int c = 0; c < 65536; c++) {
            // surrogates: the code point they form may be an icon
            MAY_START_INFIX[c] |= Character.isSurrogate((char) c) || ICONS.contains(c);
        }
    }

    private static boolean signBetweenDigits(char[] s, int from, int to, int i) {
        if (i <= from || i + 1 >= to || !isAsciiDigit(s[i - 1])) {
            return false;
        }
        char next = s[i + 1];
        return isAsciiDigit(next) || next == '-';
    }

    private static int hyphenLength(char[] s, int from, int to, int i) {
        if (!afterLetterOrDigit(s, from, i)) {
            return 0;
        }
        for (String hyphen : HYPHENS) {
            int end = i + hyphen.length();
            if (end < to && startsWith(s, i, hyphen) && ALPHA.contains(Character.codePointAt(s, end))) {
                return hyphen.length();
            }
        }
        return 0;
    }

    private static boolean afterLetterOrDigit(char[] s, int from, int i) {
        if (i <= from) {
            return false;
        }
        int before = Character.codePointBefore(s, i);
        return isAsciiDigit(before) || ALPHA.contains(before);
    }

    private static boolean isLowerOrQuote(int cp) {
        return ALPHA_LOWER.contains(cp) || QUOTES.contains(cp);
    }

    private static boolean isUpperOrQuote(int cp) {
        return ALPHA_UPPER.contains(cp) || QUOTES.contains(cp);
    }

    private static int dotRun(char[] s, int i, int to) {
        int end = i;
        while (end < to && s[end] == '.') {
            end++;
        }
        return end - i;
    }

    /** Does {@code s} hold {@code prefix} at {@code pos}? The caller knows the region is long enough. */
    static boolean startsWith(char[] s, int pos, String prefix) {
        for (int k = 0; k < prefix.length(); k++) {
            if (s[pos + k] != prefix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    static boolean isAsciiDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
