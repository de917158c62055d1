package io.sluice.text;

import java.text.Normalizer;
import java.util.regex.Pattern;

/**
 * datatrove's {@code simplify_text} (version 0.10): the normalisation MinHash applies before
 * shingling, so that near-duplicates differing only in case, punctuation, digits, spacing or accents
 * give the same shingles. Steps, in datatrove's order: lowercase; every number (digits, optionally one
 * decimal separator and more digits) becomes {@code 0}; every character of {@link #PUNCTUATION}
 * becomes a space; whitespace runs become one space and the ends are stripped; NFD decomposition
 * with all non-spacing marks (category Mn) removed; a final strip. "Whitespace" is Python's
 * {@code str.isspace()}, which, unlike Java's {@code Character.isWhitespace}, includes no-break spaces.
 */
public final class TextNormalizer {
    /** datatrove's {@code PUNCTUATION}: these symbols plus the C0/C1 control characters except tab and newline. */
    public static final String PUNCTUATION;
    private static final boolean[] PUNCT_BMP = new boolean[0x10000];

    static {
        StringBuilder sb = new StringBuilder(
                "!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_.\"}►»");
        int[][] ranges = {{0, 9}, {11, 13}, {13, 32}, {127, 160}};
        for (int[] r : ranges) {
            for (int c = r[0]; c < r[1]; c++) {
                sb.append((char) c);
            }
        }
        PUNCTUATION = sb.toString();
        for (int i = 0; i < PUNCTUATION.length(); i++) {
            PUNCT_BMP[PUNCTUATION.charAt(i)] = true;
        }
    }

    private static final Pattern WEEKDAY = Pattern.compile("monday|tuesday|wednesday|thursday|friday|saturday|sunday");
    private static final Pattern MONTH = Pattern.compile(
            "january|february|march|april|may|june|july|august|september|october|november|december");

    private TextNormalizer() {
    }

    public static String simplify(String text) {
        return simplify(text, TextNormConfig.DEFAULT);
    }

    public static String simplify(String text, TextNormConfig config) {
        if (SimplifiedChunks.applies(config)) {
            StringBuilder sb = new StringBuilder(text.length());
            SimplifiedChunks.Sink joiner = new SimplifiedChunks.Sink() {
                // a space before every chunk but the first: a chunk that lost all its characters keeps its space
                private boolean first = true;

                @Override
                public void letters(char[] chars, int length) {
                    space();
                    sb.append(chars, 0, length);
                }

                @Override
                public void other(String chunk) {
                    space();
                    sb.append(chunk);
                }

                private void space() {
                    if (!first) {
                        sb.append(' ');
                    }
                    first = false;
                }
            };
            if (new SimplifiedChunks().split(text, config, joiner)) {
                return PyText.strip(sb.toString());
            }
        }
        return simplifyStepByStep(text, config);
    }

    /**
     * {@link #simplify} one step after the other, as datatrove writes it: the reference for the one-pass
     * path, and the way for text that {@link SimplifiedChunks#split} declined.
     */
    public static String simplifyStepByStep(String text, TextNormConfig config) {
        if (config.lowercase()) {
            text = PyText.lower(text);
        }
        if (config.normNumbers()) {
            text = replaceNumbers(text);
        }
        if (config.normWeekdays()) {
            text = WEEKDAY.matcher(text).replaceAll("WEEKDAY");
        }
        if (config.normMonthnames()) {
            text = MONTH.matcher(text).replaceAll("MONTH");
        }
        if (config.removePunctuation() || config.normWhitespace()) {
            text = spacePunctuationAndWhitespace(text, config.removePunctuation(), config.normWhitespace());
        }
        if (config.normUnicodeDiacritics()) {
            text = stripMarks(text);
        }
        return PyText.strip(text);
    }

    /** The end of the number starting at {@code i}: digits, then optionally a separator and more digits. */
    static int skipNumber(String text, int i) {
        i = skipDigits(text, i);
        if (i + 1 < text.length() && isDecimalSeparator(text.charAt(i)) && isDigitAt(text, i + 1)) {
            i = skipDigits(text, i + 1);
        }
        return i;
    }

    /**
     * Every match of {@code \p{Nd}+([.,،٫⎖⎗⎘]\p{Nd}+)?} becomes "0"; a hand-written scan, several
     * times faster than the regex on text with many numbers.
     */
    private static String replaceNumbers(String text) {
        int n = text.length();
        int i = 0;
        while (i < n && !isDigitAt(text, i)) {
            i += Character.charCount(text.codePointAt(i));
        }
        if (i == n) {
            return text;
        }
        StringBuilder sb = new StringBuilder(n);
        int copied = 0; // text[copied, i) is still to be copied
        while (i < n) {
            if (!isDigitAt(text, i)) {
                i += Character.charCount(text.codePointAt(i));
                continue;
            }
            sb.append(text, copied, i);
            i = skipDigits(text, i);
            if (i + 1 < n && isDecimalSeparator(text.charAt(i)) && isDigitAt(text, i + 1)) {
                i = skipDigits(text, i + 1);
            }
            sb.append('0');
            copied = i;
        }
        sb.append(text, copied, n);
        return sb.toString();
    }

    private static boolean isDigitAt(String s, int i) {
        char c = s.charAt(i);
        if (c < 0x80) {
            return c >= '0' && c <= '9';
        }
        return PyText.category(s.codePointAt(i)) == Character.DECIMAL_DIGIT_NUMBER;
    }

    private static int skipDigits(String s, int i) {
        while (i < s.length() && isDigitAt(s, i)) {
            i += Character.charCount(s.codePointAt(i));
        }
        return i;
    }

    private static boolean isDecimalSeparator(char c) {
        return c == '.' || c == ',' || c == '\u060C' || c == '\u066B' || c == '\u2396' || c == '\u2397' || c == '\u2398';
    }

    /** Punctuation to spaces and/or whitespace runs to one space, ends stripped, in one pass. */
    private static String spacePunctuationAndWhitespace(String text, boolean punct, boolean whitespace) {
        int n = text.length();
        char[] out = new char[n];
        int len = 0;
        if (!whitespace) {
            for (int i = 0; i < n; i++) {
                char c = text.charAt(i);
                out[len++] = PUNCT_BMP[c] ? ' ' : c;
            }
            return new String(out, 0, len);
        }
        boolean pendingSpace = false;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (PyText.isSpace(c) || (punct && PUNCT_BMP[c])) {
                // a removed punctuation mark is a space; if it ends the text datatrove's later strip drops it
                pendingSpace = true;
            } else {
                if (pendingSpace && len > 0) {
                    out[len++] = ' ';
                }
                pendingSpace = false;
                out[len++] = c;
            }
        }
        return new String(out, 0, len);
    }

    /**
     * NFD, then drop every non-spacing mark. Most characters are their own result or have a fixed one
     * ({@link MarklessChars}); only runs of marks and surrogates go through the normaliser.
     */
    static String stripMarks(String text) {
        int n = text.length();
        int i = 0;
        while (i < n && (text.charAt(i) < 0xC0 || MarklessChars.of(text.charAt(i)) == MarklessChars.INERT)) {
            i++;
        }
        if (i == n) {
            return text;
        }
        StringBuilder sb = new StringBuilder(n).append(text, 0, i);
        while (i < n) {
            char c = text.charAt(i);
            String result = c < 0xC0 ? MarklessChars.INERT : MarklessChars.of(c);
            if (result == MarklessChars.INERT) {
                sb.append(c);
                i++;
            } else if (result != MarklessChars.IN_SEQUENCE) {
                sb.append(result);
                i++;
            } else {
                int end = i + 1;
                while (end < n && text.charAt(end) >= 0xC0 && MarklessChars.of(text.charAt(end)) == MarklessChars.IN_SEQUENCE) {
                    end++;
                }
                appendWithoutMarks(Normalizer.normalize(text.substring(i, end), Normalizer.Form.NFD), sb);
                i = end;
            }
        }
        return sb.toString();
    }

    /** NFD and mark removal as datatrove writes them, for everything {@link MarklessChars} cannot take alone. */
    static void appendWithoutMarks(String nfd, StringBuilder sb) {
        for (int k = 0; k < nfd.length(); ) {
            int cp = nfd.codePointAt(k);
            if (Character.getType(cp) != Character.NON_SPACING_MARK) {
                sb.appendCodePoint(cp);
            }
            k += Character.charCount(cp);
        }
    }

    /** Is {@code c} one of {@link #PUNCTUATION}? */
    static boolean isPunctuation(char c) {
        return PUNCT_BMP[c];
    }
}
