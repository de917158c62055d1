package io.sluice.formatters;

/**
 * datatrove's e-mail pattern matched by hand, as Python's {@code re} matches it ({@link PiiFormatter}):
 * <pre>
 * \b L+(?:\.L+)* @ (?:(?:A(?:B*A)?\.)+A(?:B*A)? | \[(?:OCTET\.){3}(?:OCTET|B*A:)])
 * L = [a-z0-9!#$%&'*+/=?^_`{|}~-]   A = [a-z0-9]   B = [a-z0-9-]   OCTET = 25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?
 * </pre>
 * Java's regex engine differed twice: its {@code \b} counts other characters as word characters than Python's
 * {@code [\p{L}\p{N}_]} (combining marks, "²"), and it recursed once per repeated label, so a long dotted
 * address overflowed the stack and failed the rank. By hand: an address holds exactly one '@'; its local part
 * is everything from its start to that '@', so the leftmost start is the first that follows a boundary and
 * leaves no ".." after it; its domain does not depend on the start.
 */
final class EmailAddresses {
    private EmailAddresses() {
    }

    /** The next address in {@code text} at or after {@code from}: {@code start << 32 | end}, or -1. */
    static long find(String text, int from) {
        for (int at = text.indexOf('@', from); at >= 0; at = text.indexOf('@', at + 1)) {
            int end = domainEnd(text, at + 1);
            if (end < 0 || at == from || text.charAt(at - 1) == '.') {
                continue;
            }
            // the run of local-part characters and dots before the '@'; no ".." may follow the start
            int first = at;
            while (first > from && (isLocal(text.charAt(first - 1)) || text.charAt(first - 1) == '.')) {
                first--;
                if (text.charAt(first) == '.' && text.charAt(first + 1) == '.') {
                    first += 2; // a start at or before the first dot holds ".."
                    break;
                }
            }
            for (int p = first; p < at; p++) {
                if (text.charAt(p) != '.' && isWord(text.charAt(p)) != (p > 0 && isWord(text.codePointBefore(p)))) {
                    return (long) p << 32 | end;
                }
            }
        }
        return -1;
    }

    /** Where the domain starting at {@code p} ends, or -1 when none starts there. */
    private static int domainEnd(String s, int p) {
        int n = s.length();
        if (p < n && s.charAt(p) == '[') {
            return bracketEnd(s, p + 1);
        }
        // (A(B*A)?\.)+ : whole labels, each followed by its '.'; then the last label, up to its last A
        int labels = 0;
        int lastDot = -1;
        int q = p;
        while (true) {
            int run = labelEnd(s, q);
            if (run > q && isAlnum(s.charAt(q)) && isAlnum(s.charAt(run - 1)) && run < n && s.charAt(run) == '.') {
                labels++;
                lastDot = run;
                q = run + 1;
            } else {
                break;
            }
        }
        if (labels == 0) {
            return -1;
        }
        if (q < n && isAlnum(s.charAt(q))) {
            int end = labelEnd(s, q);
            while (!isAlnum(s.charAt(end - 1))) { // back to its last A: a '-' cannot end it
                end--;
            }
            return end;
        }
        // the last label cannot start after the last dot: the label before it is the last one
        return labels >= 2 ? lastDot : -1;
    }

    /** After "[": three octets each followed by '.', then an octet or B*A followed by ':', then ']'. */
    private static int bracketEnd(String s, int q) {
        int n = s.length();
        q = IpAddresses.afterDottedOctets(s, q);
        if (q < 0) {
            return -1;
        }
        int digits = IpAddresses.octetDigits(s, q);
        if (digits > 0 && q + digits < n && s.charAt(q + digits) == ']') {
            return q + digits + 1;
        }
        int run = labelEnd(s, q);
        if (run > q && isAlnum(s.charAt(run - 1)) && run + 1 < n && s.charAt(run) == ':' && s.charAt(run + 1) == ']') {
            return run + 2;
        }
        return -1;
    }

    /** The end of the run of B = [a-z0-9-] from {@code q}. */
    private static int labelEnd(String s, int q) {
        while (q < s.length() && isLabel(s.charAt(q))) {
            q++;
        }
        return q;
    }

    private static final String LOCAL_SYMBOLS = "!#$%&'*+/=?^_`{|}~-";

    private static boolean isLocal(char c) {
        return isAlnum(c) || LOCAL_SYMBOLS.indexOf(c) >= 0;
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || IpAddresses.isDigit(c);
    }

    private static boolean isLabel(char c) {
        return isAlnum(c) || c == '-';
    }

    /** Python's {@code \w} for a str pattern: a letter or a number of any script, or '_'. */
    private static boolean isWord(int cp) {
        if (cp < 0x80) {
            return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_';
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                 Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> false;
        };
    }
}
