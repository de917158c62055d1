package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.CharBuffer;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written IPv4 part of spaCy's URL_MATCH against the regular expression it stands for. */
class UrlMatcherTest {
    /** spaCy's IPv4 host and rest (spacy/lang/tokenizer_exceptions.py), D a Unicode decimal digit as Python's \d. */
    private static final Pattern IPV4_AND_REST = Pattern.compile((
            "(?!(?:10|127)(?:\\.D{1,3}){3})"
                    + "(?!(?:169\\.254|192\\.168)(?:\\.D{1,3}){2})"
                    + "(?!172\\.(?:1[6-9]|2D|3[0-1])(?:\\.D{1,3}){2})"
                    + "(?:[1-9]D?|1DD|2[01]D|22[0-3])"
                    + "(?:\\.(?:1?D{1,2}|2[0-4]D|25[0-5])){2}"
                    + "(?:\\.(?:[1-9]D?|1DD|2[0-4]D|25[0-4]))"
                    + "(?::D{2,5})?(?:[/?#].*)?").replace("D", "\\p{Nd}"),
            Pattern.DOTALL);

    /** The same without the exclusions of private ranges, to count the cases only those reject. */
    private static final Pattern WITHOUT_EXCLUSIONS = Pattern.compile(
            IPV4_AND_REST.pattern().substring(IPV4_AND_REST.pattern().indexOf("(?:[1-9]")), Pattern.DOTALL);

    private static boolean regex(String s) {
        return IPV4_AND_REST.matcher(CharBuffer.wrap(s)).matches();
    }

    private static boolean ours(String s) {
        char[] chars = s.toCharArray();
        return UrlMatcher.ipv4AndRestMatches(chars, 0, chars.length);
    }

    @Test
    void knownAddresses() {
        for (String yes : new String[] {"8.8.8.8", "8.8.8.8:53", "1.2.3.4/x?y#z", "223.255.255.254", "100.1.2.3",
                "172.15.0.1", "172.32.0.1", "172.160.0.1", "11.0.0.1:65535", "1.0.0.1#", "1٢3.4.5.6"}) {
            assertTrue(ours(yes), yes);
            assertTrue(regex(yes), yes);
        }
        for (String no : new String[] {"127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.1.1", "172.16.0.1",
                "172.31.255.1", "172.2٣.0.1", "0.1.2.3", "224.0.0.1", "1.2.3.255", "1.2.3.0", "1.256.3.4",
                "1.2.3.4:5", "1.2.3.4:123456", "1.2.3.4.5", "1.2.3", "1.2.3.4x", "1..3.4", "1234.1.1.1"}) {
            assertFalse(ours(no), no);
            assertFalse(regex(no), no);
        }
    }

    /** Random dotted numbers, mutated, from ASCII digits, other scripts' digits (one of them outside the BMP) and marks. */
    @Test
    void agreesWithTheRegexOnRandomDottedNumbers() {
        String[] pieces = {"0", "1", "2", "3", "4", "5", "6", "7", "9", "25", "22", "17", "16", "19", "10", "127", "168",
                "169", "172", "192", "254", "255", "\u0663", "\u09e8", "\uD835\uDFD9", ".", ".", ":", "/", "?", "#", "a",
                "\uD835", "-"};
        Random random = new Random(20261127);
        int matched = 0;
        int excluded = 0;
        for (int n = 0; n < 300_000; n++) {
            StringBuilder b = new StringBuilder();
            if (random.nextInt(3) > 0) {
                // mostly well-formed: four octets of one to four digits, then maybe a port and a path
                for (int octet = 0; octet < 4; octet++) {
                    if (octet > 0) {
                        b.append('.');
                    }
                    if (random.nextBoolean()) {
                        b.append(pieces[9 + random.nextInt(13)]); // a number the octet rules or exclusions name
                    } else {
                        int digits = 1 + random.nextInt(random.nextInt(8) == 0 ? 4 : 3);
                        for (int d = 0; d < digits; d++) {
                            b.append(pieces[random.nextInt(random.nextInt(4) == 0 ? 25 : 9)]);
                        }
                    }
                }
                if (random.nextBoolean()) {
                    b.append(':').append(random.nextInt(random.nextBoolean() ? 100 : 10_000_000));
                }
                if (random.nextBoolean()) {
                    b.append(pieces[27 + random.nextInt(3)]).append(pieces[random.nextInt(pieces.length)]);
                }
            }
            for (int k = random.nextInt(3); k > 0; k--) {
                int at = random.nextInt(b.length() + 1);
                b.insert(at, pieces[random.nextInt(pieces.length)]);
            }
            String s = b.toString();
            boolean expected = regex(s);
            assertEquals(expected, ours(s), () -> "'" + s + "'");
            matched += expected ? 1 : 0;
            excluded += !expected && WITHOUT_EXCLUSIONS.matcher(s).matches() ? 1 : 0;
        }
        assertTrue(matched > 10_000 && excluded > 1_000, "too few cases: " + matched + " matched, " + excluded + " excluded");
    }

    @Test
    void tokenizerKeepsPublicAddressesWhole() {
        assertEquals(java.util.List.of("from", "8.8.4.4:25", "(", "10.0.0.2", ")"),
                EnglishText.words("from 8.8.4.4:25 (10.0.0.2)"));
    }
}
