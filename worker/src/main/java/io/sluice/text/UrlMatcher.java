package io.sluice.text;

/**
 * spaCy's {@code URL_MATCH} (spacy/lang/tokenizer_exceptions.py): is a chunk, after its prefixes and
 * suffixes were split off, a URL or e-mail address to keep as one token?
 *
 * <p>The pattern is {@code ^[scheme://][userinfo@](IPv4 | host.tld)[:port][/?#rest]$}. It is decided here
 * without running the regular expression over the host, because the host part only has one way to
 * match: it is the longest run of host characters after the start, and it must be followed by the
 * end, a port or a path. The start of the host is tried at each place the optional parts allow: the
 * chunk start, after a {@code scheme://} and after every '@'. Dotted-number hosts (IPv4, with spaCy's
 * exclusion of private ranges) are read octet by octet ({@link #ipv4AndRestMatches}).
 */
final class UrlMatcher {
    private UrlMatcher() {
    }

    /** Does spaCy's URL_MATCH match the whole of {@code s[from:to]} (a chunk without whitespace)? */
    static boolean matches(char[] s, int from, int to) {
        if (!containsDot(s, from, to)) {
            return false; // both a host name and an IPv4 address need a dot
        }
        if (hostAndRestMatch(s, from, to)) {
            return true;
        }
        int schemeEnd = schemeEnd(s, from, to);
        if (schemeEnd > 0 && hostAndRestMatch(s, schemeEnd, to)) {
            return true;
        }
        for (int at = from + 1; at < to; at++) {
            if (s[at] == '@' && hostAndRestMatch(s, at + 1, to)) {
                return true; // "user@" or "user:password@" (any non-empty text before the '@')
            }
        }
        return false;
    }

    private static boolean containsDot(char[] s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s[i] == '.') {
                return true;
            }
        }
        return false;
    }

    /** An IPv4 address has three dots: numbers such as "1.5" need not run the regex. */
    private static int dotCount(char[] s, int from, int to) {
        int dots = 0;
        for (int i = from; i < to; i++) {
            if (s[i] == '.') {
                dots++;
            }
        }
        return dots;
    }

    /** End of a leading {@code [\w+\-.]{2,}://}, or -1. */
    private static int schemeEnd(char[] s, int from, int to) {
        int i = from;
        int count = 0;
        while (i < to) {
            int cp = Character.codePointAt(s, i);
            if (!isSchemeChar(cp)) {
                break;
            }
            count++;
            i += Character.charCount(cp);
        }
        return count >= 2 && i + 3 <= to && PunctuationRules.startsWith(s, i, "://") ? i + 3 : -1;
    }

    /** Python's {@code \w} (str.isalnum() or '_') plus '+', '-', '.'. */
    private static boolean isSchemeChar(int cp) {
        if (cp == '_' || cp == '+' || cp == '-' || cp == '.') {
            return true;
        }
        if (PyText.isAlpha(cp)) {
            return true;
        }
        int type = PyText.category(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    private static boolean hostAndRestMatch(char[] s, int host, int to) {
        if (host >= to) {
            return false;
        }
        char first = s[host];
        if (first >= '1' && first <= '9' && dotCount(s, host, to) >= 3 && ipv4AndRestMatches(s, host, to)) {
            return true;
        }
        int end = host;
        while (end < to) {
            int cp = Character.codePointAt(s, end);
            if (!isHostChar(cp)) {
                break;
            }
            end += Character.charCount(cp);
        }
        return restMatches(s, end, to) && hostNameMatches(s, host, end);
    }

    /**
     * spaCy's IPv4 host and the rest of the URL over exactly {@code s[from:to]}, where D is a decimal digit
     * of any script (Python's Unicode {@code \d}) and the bracketed classes are ASCII:
     * <pre>
     * (?!(?:10|127)(?:\.D{1,3}){3})
     * (?!(?:169\.254|192\.168)(?:\.D{1,3}){2})
     * (?!172\.(?:1[6-9]|2D|3[0-1])(?:\.D{1,3}){2})
     * (?:[1-9]D?|1DD|2[01]D|22[0-3])
     * (?:\.(?:1?D{1,2}|2[0-4]D|25[0-5])){2}
     * (?:\.(?:[1-9]D?|1DD|2[0-4]D|25[0-4]))
     * (?::D{2,5})?(?:[/?#].*)?
     * </pre>
     * Read without the regex (run on every dotted number of e-mail headers and logs, it was about 1% of
     * word_stats): no octet alternative can end inside a run of digits, since a digit may not follow an
     * octet, so each octet is a whole run of one to three digits between dots, and the exclusions are
     * about the first two octets' exact text.
     */
    static boolean ipv4AndRestMatches(char[] s, int from, int to) {
        int at = from;
        int firstEnd = 0;
        int second0 = 0; // the second octet's first two digits and its length, for the 172.16/12 exclusion
        int second1 = 0;
        int secondDigits = 0;
        int secondEnd = 0;
        for (int octet = 0; octet < 4; octet++) {
            if (octet > 0) {
                if (at >= to || s[at] != '.') {
                    return false;
                }
                at++;
            }
            int d0 = 0;
            int d1 = 0;
            int d2 = 0;
            int digits = 0;
            while (at < to) {
                int cp = Character.codePointAt(s, at, to);
                if (PyText.category(cp) != Character.DECIMAL_DIGIT_NUMBER) {
                    break;
                }
                if (digits == 3) {
                    return false; // a fourth digit: no octet takes it, and none may follow an octet
                }
                if (digits == 0) {
                    d0 = cp;
                } else if (digits == 1) {
                    d1 = cp;
                } else {
                    d2 = cp;
                }
                digits++;
                at += Character.charCount(cp);
            }
            if (!octetMatches(octet, digits, d0, d1, d2)) {
                return false;
            }
            if (octet == 0) {
                firstEnd = at;
            } else if (octet == 1) {
                second0 = d0;
                second1 = d1;
                secondDigits = digits;
                secondEnd = at;
            }
        }
        int secondStart = firstEnd + 1;
        if (isText(s, from, firstEnd, "10") || isText(s, from, firstEnd, "127")
                || (isText(s, from, firstEnd, "169") && isText(s, secondStart, secondEnd, "254"))
                || (isText(s, from, firstEnd, "192") && isText(s, secondStart, secondEnd, "168"))) {
            return false;
        }
        if (isText(s, from, firstEnd, "172") && secondDigits == 2
                && ((second0 == '1' && second1 >= '6' && second1 <= '9') || second0 == '2'
                        || (second0 == '3' && (second1 == '0' || second1 == '1')))) {
            return false;
        }
        return restMatches(s, at, to);
    }

    /**
     * Does an octet of {@code digits} digits starting d0 d1 d2 match its alternatives: the first
     * {@code [1-9]D?|1DD|2[01]D|22[0-3]}, the middle two {@code 1?D{1,2}|2[0-4]D|25[0-5]}, the last
     * {@code [1-9]D?|1DD|2[0-4]D|25[0-4]}?
     */
    private static boolean octetMatches(int octet, int digits, int d0, int d1, int d2) {
        boolean middle = octet == 1 || octet == 2;
        if (digits == 1 || digits == 2) {
            return middle || (d0 >= '1' && d0 <= '9');
        }
        if (digits != 3) {
            return false;
        }
        if (d0 == '1') {
            return true;
        }
        if (d0 != '2') {
            return false;
        }
        if (octet == 0) {
            return d1 == '0' || d1 == '1' || (d1 == '2' && d2 >= '0' && d2 <= '3');
        }
        return (d1 >= '0' && d1 <= '4') || (d1 == '5' && d2 >= '0' && d2 <= (middle ? '5' : '4'));
    }

    /** Is {@code s[from:to]} exactly the ASCII {@code text}? */
    private static boolean isText(char[] s, int from, int to, String text) {
        if (to - from != text.length()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (s[from + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@code (?::\d{2,5})?(?:[/?#]\S*)?$} at {@code i}. */
    private static boolean restMatches(char[] s, int i, int to) {
        if (i == to) {
            return true;
        }
        char c = s[i];
        if (c == '/' || c == '?' || c == '#') {
            return true;
        }
        if (c != ':') {
            return false;
        }
        int j = i + 1;
        int digits = 0;
        while (j < to) {
            int cp = Character.codePointAt(s, j);
            if (PyText.category(cp) != Character.DECIMAL_DIGIT_NUMBER) {
                break;
            }
            digits++;
            j += Character.charCount(cp);
        }
        if (digits < 2 || digits > 5) {
            return false;
        }
        return j == to || s[j] == '/' || s[j] == '?' || s[j] == '#';
    }

    /** {@code (?:label\.)+tld} over exactly {@code s[from:to]}. */
    private static boolean hostNameMatches(char[] s, int from, int to) {
        int lastDot = to - 1;
        while (lastDot >= from && s[lastDot] != '.') {
            lastDot--;
        }
        if (lastDot < from) {
            return false;
        }
        int tldLength = 0;
        for (int i = lastDot + 1; i < to; ) {
            int cp = Character.codePointAt(s, i);
            if (!SpacyCharClasses.ALPHA_LOWER.contains(cp)) {
                return false;
            }
            tldLength++;
            i += Character.charCount(cp);
        }
        if (tldLength < 2 || tldLength > 63) {
            return false;
        }
        int labelStart = from;
        while (labelStart < lastDot) {
            int dot = labelStart;
            while (s[dot] != '.') {
                dot++; // there is one: lastDot
            }
            if (!labelMatches(s, labelStart, dot)) {
                return false;
            }
            labelStart = dot + 1;
        }
        return labelStart == lastDot + 1;
    }

    /** {@code (?:[H][H_-]{0,62})?[H]} where H is {@code [A-Za-z0-9\u00a1-\uffff]}. */
    private static boolean labelMatches(char[] s, int from, int to) {
        int length = to - from;
        if (length < 1 || length > 64) {
            return false;
        }
        if (!isLabelEdgeChar(s[from]) || !isLabelEdgeChar(s[to - 1])) {
            return false;
        }
        for (int i = from + 1; i < to - 1; i++) {
            char c = s[i];
            if (!isLabelEdgeChar(c) && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLabelEdgeChar(char c) {
        // A surrogate is half of a code point above U+FFFF, which the class does not include.
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || (c >= '\u00a1' && !Character.isSurrogate(c));
    }

    private static boolean isHostChar(int cp) {
        if (cp < 0x80) {
            return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
                    || cp == '_' || cp == '-' || cp == '.';
        }
        return (cp >= 0xA1 && cp <= 0xFFFF) || SpacyCharClasses.ALPHA_LOWER.contains(cp);
    }
}
