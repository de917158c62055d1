package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tokenizations checked against spaCy 3.8 ({@code spacy.blank("en")}); each expected list is what
 * spaCy's {@code [t.text for t in nlp(text)]} gives (whitespace tokens included where the test says so).
 */
class SpacyEnglishTokenizerTest {

    private static void assertWords(String text, String... expected) {
        assertEquals(List.of(expected), EnglishText.words(text), () -> "words of " + text);
    }

    private static void assertTokens(String text, String... expected) {
        Tokens tokens = SpacyEnglishTokenizer.english().tokenize(text);
        List<String> actual = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            actual.add(tokens.text(i));
        }
        assertEquals(List.of(expected), actual, () -> "tokens of " + text);
    }

    @Test
    void contractionsAreSplitByTheExceptionTable() {
        assertWords("I don't know.", "I", "do", "n't", "know", ".");
        assertWords("dont", "do", "nt");
        assertWords("cannot", "can", "not");
        assertWords("Cannot", "Can", "not");
        assertWords("gonna", "gon", "na");
        assertWords("Gotta go", "Got", "ta", "go");
        assertWords("can't won't shouldn't", "ca", "n't", "wo", "n't", "should", "n't");
        assertWords("I'm you're it's", "I", "'m", "you", "'re", "it", "'s");
        assertWords("Don\u2019t", "Do", "n\u2019t"); // typographic apostrophe variants
        assertWords("y'all let's c'mon", "y'", "all", "let", "'s", "c'm", "on");
        assertWords("10am 3p.m. 12pm", "10", "am", "3", "p.m.", "12", "pm");
    }

    @Test
    void wordsThatLookLikeContractionsAreExcluded() {
        assertWords("Its well were ill", "Its", "well", "were", "ill");
    }

    @Test
    void abbreviationsKeepTheirPeriods() {
        assertWords("U.S. e.g. i.e. Dr. Smith Ph.D. Mr. Jones", "U.S.", "e.g.", "i.e.", "Dr.", "Smith", "Ph.D.", "Mr.",
                "Jones");
        assertWords("the U.S.A. and U.K.", "the", "U.S.A.", "and", "U.K.");
        assertWords("Calif. Jan. etc.", "Calif.", "Jan.", "etc", ".");
        assertWords("x. p.m.", "x.", "p.m.");
        assertWords("ABC. AB. Cd", "ABC", ".", "AB", ".", "Cd");
    }

    @Test
    void urlsAndEmailsStayWhole() {
        assertWords("Visit https://www.example.com/path?q=1&r=2. Now", "Visit", "https://www.example.com/path?q=1&r=2", ".",
                "Now");
        assertWords("(see http://x.org/a)", "(", "see", "http://x.org/a", ")");
        assertWords("www.google.com,", "www.google.com", ",");
        assertWords("mail me at john.doe@example.co.uk!", "mail", "me", "at", "john.doe@example.co.uk", "!");
        assertWords("127.0.0.1 and 8.8.8.8:53", "127.0.0.1", "and", "8.8.8.8:53");
        assertWords("hello.World", "hello", ".", "World"); // upper-case "TLD": not a URL, split at the infix '.'
    }

    @Test
    void numbersUnitsAndCurrencies() {
        assertWords("It costs $1,000.50 or 3.14", "It", "costs", "$", "1,000.50", "or", "3.14");
        assertWords("100,000 people", "100,000", "people");
        assertWords("10km 5kg 20% US$5 5$", "10", "km", "5", "kg", "20", "%", "US$", "5", "5", "$");
        assertWords("3.5.", "3.5", ".");
        assertWords("5\u00b0C.", "5", "\u00b0", "C", ".");
    }

    @Test
    void hyphensAndSlashesAreInfixes() {
        assertWords("state-of-the-art", "state", "-", "of", "-", "the", "-", "art");
        assertWords("well-known 1-2 3--4", "well", "-", "known", "1", "-", "2", "3", "-", "-4");
        assertWords("New York-based e-mail", "New", "York", "-", "based", "e", "-", "mail");
        assertWords("a/b and/or w/o", "a", "/", "b", "and/or", "w/o");
        assertWords("Hello.World", "Hello", ".", "World");
    }

    @Test
    void quotesAndBracketsArePrefixesAndSuffixes() {
        assertWords("\"Hello,\" she said.", "\"", "Hello", ",", "\"", "she", "said", ".");
        assertWords("(parenthesis) [bracket] {brace}", "(", "parenthesis", ")", "[", "bracket", "]", "{", "brace", "}");
        assertWords("'quoted' \u00abguillemets\u00bb \u201ccurly\u201d", "'", "quoted", "'", "\u00ab", "guillemets", "\u00bb",
                "\u201c", "curly", "\u201d");
        assertWords("#hashtag @user", "#", "hashtag", "@user");
    }

    @Test
    void ellipsesAndRepeatedPunctuation() {
        assertWords("Wait... what", "Wait", "...", "what");
        assertWords("Wait...", "Wait", "...");
        assertWords("end\u2026", "end", "\u2026");
        assertWords("Great!!! What?!", "Great", "!", "!", "!", "What", "?", "!");
    }

    @Test
    void emoticonsAndEmoji() {
        assertWords(":) :-) :( <3 ^_^ o.O \u00af\\(\u30c4)/\u00af", ":)", ":-)", ":(", "<3", "^_^", "o.O",
                "\u00af\\(\u30c4)/\u00af");
        assertWords("Hi:)", "Hi", ":)"); // ":" and ")" come off as suffixes, then merge back into the emoticon
        assertWords("\ud83d\ude00\ud83d\udc4d emoji\ud83d\ude00 I \u2665 NY", "\ud83d\ude00", "\ud83d\udc4d", "emoji",
                "\ud83d\ude00", "I", "\u2665", "NY");
        assertWords("C++ rocks", "C++", "rocks");
    }

    @Test
    void whitespaceBecomesTokensThatWordsDrop() {
        assertTokens("a  b", "a", " ", "b");
        assertTokens("a\n\nb", "a", "\n\n", "b");
        assertTokens(" leading", " ", "leading");
        assertTokens("trailing  ", "trailing", " ");
        assertTokens("nbsp\u00a0here", "nbsp", "\u00a0", "here");
        assertTokens("\n", "\n");
        assertTokens("");
        assertWords("a  b\n\nc\td\u00a0e", "a", "b", "c", "d", "e");
        assertWords("\n");
    }

    @Test
    void tokensTileTheText() {
        String text = "He said: \"don't!\"  (http://x.org/a-b)\n\nOK...";
        Tokens tokens = SpacyEnglishTokenizer.english().tokenize(text);
        int pos = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.start(i) == pos + 1 && text.charAt(pos) == ' ') {
                pos++; // the single trailing space of the previous token
            }
            assertEquals(pos, tokens.start(i), "token " + i + " starts where the previous one ended");
            pos = tokens.end(i);
        }
        assertEquals(text.length(), pos);
    }

    @Test
    void aLoneSurrogateAtTheEndIsNotPairedWithTheTextBefore() {
        // The tokenizer reads texts through an array it reuses; the first text leaves a low surrogate
        // where the second one ends. An emoji is a prefix, so pairing the lone high surrogate with that
        // stale half would cut a two-unit token from a one-unit chunk.
        assertTokens("ab \uD83D\uDE00", "ab", "\uD83D\uDE00");
        assertTokens("ab \uD83D", "ab", "\uD83D");
        assertTokens("ab (\uD83D", "ab", "(", "\uD83D");
    }

    @Test
    void aReusedTokenListGetsTheSameTokensAsAFreshOne() {
        // The matcher builds a merged list in a scratch list and swaps arrays with the caller's: texts
        // with merges (":)", "a.") of different sizes, one after another into one list, must each come
        // out as they do alone.
        List<String> texts = List.of("Hi :) there a. b", "x", "Great :) :) Ok. a. (c) :-) " + "word ".repeat(300),
                "", "Yes :) no", "plain words only");
        Tokens reused = new Tokens(4);
        for (int round = 0; round < 2; round++) {
            for (String text : texts) {
                EnglishText.tokenize(text, reused);
                Tokens fresh = SpacyEnglishTokenizer.english().tokenize(text);
                assertEquals(texts(fresh), texts(reused), () -> "tokens of " + text);
            }
        }
    }

    @Test
    void aChunkMetAgainIsMatchedAsTheFirstTime() {
        // The chunk memo keeps which of a short chunk's first three tokens may take part in a multi-token
        // special case ("Hi:)" -> "Hi" ":" ")" -> "Hi" ":)"), and notes match starts from that on later
        // meetings; a chunk with more tokens, or a match in a later one, is tested again instead.
        assertWords("Hi:) Hi:) Hi:)", "Hi", ":)", "Hi", ":)", "Hi", ":)");
        assertWords("a-b-c:) a-b-c:)", "a", "-", "b", "-", "c", ":)", "a", "-", "b", "-", "c", ":)");
        assertWords("(:) (:) x", "(", ":)", "(", ":)", "x");
        for (String chunk : List.of("Ok.", "a.", "(c)", ":-)", "x:(", "e.g.,", "it's", "--", "=)", "b-)", "'s")) {
            List<String> once = EnglishText.words("say " + chunk);
            List<String> expected = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                expected.addAll(once);
            }
            assertEquals(expected, EnglishText.words(("say " + chunk + " ").repeat(3).strip()), () -> "words of " + chunk);
        }
    }

    private static List<String> texts(Tokens tokens) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            out.add(tokens.start(i) + ":" + tokens.text(i));
        }
        return out;
    }

    @Test
    void exceptionTableMatchesSpacysSize() {
        var table = EnglishTokenizerExceptions.build();
        assertEquals(1347, table.size()); // len(spacy.blank("en").tokenizer.rules) in spaCy 3.8
        assertArrayEquals(new String[] {"How", "'d", "'y"}, table.get("How'd'y"));
        assertArrayEquals(new String[] {"\u00b0", "F", "."}, table.get("\u00b0F."));
    }

    /**
     * The chunking runs on 64-character bitmaps ({@link CharClasses}): words and whitespace runs that cross
     * a bitmap word, words longer than one or two bitmap words, and whitespace at the text's end, checked
     * against spaCy's rule for text of plain words (each word a token; a whitespace run a token except
     * one single space after a word).
     */
    @Test
    void plainWordsAndWhitespaceAcrossBitmapWords() {
        java.util.Random r = new java.util.Random(3);
        String[] spaces = {" ", " ", " ", "  ", "\n", " \n\n", "\t", "\u00a0", "\u3000 ", "\r\n"};
        for (int round = 0; round < 2000; round++) {
            StringBuilder text = new StringBuilder();
            List<String> expected = new ArrayList<>();
            if (r.nextInt(4) == 0) {
                String lead = spaces[r.nextInt(spaces.length)];
                text.append(lead);
                expected.add(lead);
            }
            int words = r.nextInt(40);
            for (int w = 0; w < words; w++) {
                int length = r.nextInt(10) == 0 ? 60 + r.nextInt(150) : 1 + r.nextInt(9);
                StringBuilder word = new StringBuilder();
                for (int k = 0; k < length; k++) {
                    word.append("xqzXQZ".charAt(r.nextInt(6))); // no special case is made of these letters
                }
                text.append(word);
                expected.add(word.toString());
                if (w < words - 1 || r.nextBoolean()) {
                    String gap = spaces[r.nextInt(spaces.length)];
                    text.append(gap);
                    String token = gap.startsWith(" ") ? gap.substring(1) : gap;
                    if (!token.isEmpty()) {
                        expected.add(token);
                    }
                }
            }
            assertTokens(text.toString(), expected.toArray(String[]::new));
        }
    }

    /** Pieces of emoticons, abbreviations and contractions, whose special cases span tokens. */
    private static final String[] MARKS = {"(", ")", ":", ";", "a", ".", "'", "s", "-", "=", "*", "_", "x", "D", "p",
        "<", "3", "i", "e", "^", "O", "/", "[", "]", "\"", "don", "n't", "it", "U.S", "https://x.org/a", "word"};
    private static final String[] GAPS = {" ", " ", " ", "  ", "\n", "\t", " \n "};

    @Test
    void aChunksTokensAreTheWholeTextsTokensInItAndTheChunkAloneSaysWhenTheyAreItsOwn() {
        java.util.Random rnd = new java.util.Random(11);
        int inContext = 0;
        for (int doc = 0; doc < 20_000; doc++) {
            StringBuilder sb = new StringBuilder();
            int pieces = 1 + rnd.nextInt(12);
            for (int k = 0; k < pieces; k++) {
                sb.append(MARKS[rnd.nextInt(MARKS.length)]);
                if (rnd.nextInt(3) == 0) {
                    sb.append(GAPS[rnd.nextInt(GAPS.length)]);
                }
            }
            String text = sb.toString();
            inContext += checkChunks(text);
        }
        // a few hundred chunks have a match inside them: enough to test the context path
        org.junit.jupiter.api.Assertions.assertTrue(inContext > 300, "chunks whose neighbours had a say: " + inContext);
    }

    @Test
    void aMatchInsideAChunkMayLoseToALongerOneAcrossTheSpaceBeforeIt() {
        // "=)" alone is one token; after "( " the longer match "(" "=" ")" covers its tokens first (it is
        // no special case, with a space inside, so nothing is merged), and "=" ")" stay apart
        assertTokens("( =)O", "(", "=", ")", "O");
        assertTokens("=)O", "=)", "O");
        assertEquals(1, checkChunks("( =)O"));
        assertEquals(1, checkChunks("/:( (O D"));
    }

    /**
     * For every chunk of {@code text}: {@link EnglishText#chunkTokens} against the whole text's tokens in it,
     * and, when it says they are the chunk's own, against the chunk tokenized alone. Returns the number of
     * chunks it said were not.
     */
    private static int checkChunks(String text) {
        Tokens whole = EnglishText.tokenize(text);
        char[] chars = java.util.Arrays.copyOf(text.toCharArray(), text.length() + PackedChars.MAX_CHARS);
        Tokens out = new Tokens(4);
        int notAlone = 0;
        int i = 0;
        while (i < text.length()) {
            if (PyText.isSpace(chars[i])) {
                i++;
                continue;
            }
            int start = i;
            while (i < text.length() && !PyText.isSpace(chars[i])) {
                i++;
            }
            boolean alone = EnglishText.chunkTokens(chars, text.length(), start, i, out);
            List<String> expected = new ArrayList<>();
            for (int t = 0; t < whole.size(); t++) {
                if (whole.start(t) >= start && whole.end(t) <= i) {
                    expected.add(whole.text(t));
                }
            }
            List<String> got = new ArrayList<>();
            for (int t = 0; t < out.size(); t++) {
                got.add(text.substring(out.start(t), out.end(t)));
            }
            String chunk = text.substring(start, i);
            assertEquals(expected, got, () -> "chunk '" + chunk + "' of '" + text + "'");
            if (alone) {
                assertEquals(EnglishText.words(chunk), got, () -> "chunk '" + chunk + "' alone, of '" + text + "'");
            } else {
                notAlone++;
            }
        }
        return notAlone;
    }
}
