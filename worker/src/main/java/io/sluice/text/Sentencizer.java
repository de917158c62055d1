package io.sluice.text;

import java.util.ArrayList;
import java.util.List;

/**
 * spaCy's rule-based {@code sentencizer} pipe with its default punctuation characters
 * (spacy/pipeline/sentencizer.pyx): a sentence ends after a token that is one of the sentence-final
 * characters ('.', '!', '?' and their equivalents in other scripts), once a following token is
 * neither such a character nor punctuation. So "Hi!!" ends one sentence at "Hi!!" and "(...)." keeps
 * closing brackets and quotes with the sentence they close. Whitespace tokens count as non-punctuation,
 * which is why text after a newline starts a new sentence only after a sentence-final character.
 */
public final class Sentencizer {
    private Sentencizer() {
    }

    /** The sentencizer's default {@code punct_chars}. */
    private static final CodePointSet SENTENCE_FINAL = CodePointSet.ofRanges(pairs(
            0x0021, 0x002E, 0x003F, 0x0589, 0x061F, 0x06D4, 0x0700, 0x0701, 0x0702, 0x07F9, 0x0964, 0x0965, 0x104A,
            0x104B, 0x1362, 0x1367, 0x1368, 0x166E, 0x1735, 0x1736, 0x1803, 0x1809, 0x1944, 0x1945, 0x1AA8, 0x1AA9,
            0x1AAA, 0x1AAB, 0x1B5A, 0x1B5B, 0x1B5E, 0x1B5F, 0x1C3B, 0x1C3C, 0x1C7E, 0x1C7F, 0x203C, 0x203D, 0x2047,
            0x2048, 0x2049, 0x2E2E, 0x2E3C, 0x3002, 0xA4FF, 0xA60E, 0xA60F, 0xA6F3, 0xA6F7, 0xA876, 0xA877, 0xA8CE,
            0xA8CF, 0xA92F, 0xA9C8, 0xA9C9, 0xAA5D, 0xAA5E, 0xAA5F, 0xAAF0, 0xAAF1, 0xABEB, 0xFE52, 0xFE56, 0xFE57,
            0xFF01, 0xFF0E, 0xFF1F, 0xFF61, 0x10A56, 0x10A57, 0x11047, 0x11048, 0x110BE, 0x110BF, 0x110C0, 0x110C1,
            0x11141, 0x11142, 0x11143, 0x111C5, 0x111C6, 0x111CD, 0x111DE, 0x111DF, 0x11238, 0x11239, 0x1123B,
            0x1123C, 0x112A9, 0x1144B, 0x1144C, 0x115C2, 0x115C3, 0x115C9, 0x115CA, 0x115CB, 0x115CC, 0x115CD,
            0x115CE, 0x115CF, 0x115D0, 0x115D1, 0x115D2, 0x115D3, 0x115D4, 0x115D5, 0x115D6, 0x115D7, 0x11641,
            0x11642, 0x1173C, 0x1173D, 0x1173E, 0x11A42, 0x11A43, 0x11A9B, 0x11A9C, 0x11C41, 0x11C42, 0x16A6E,
            0x16A6F, 0x16AF5, 0x16B37, 0x16B38, 0x16B44, 0x1BC9F, 0x1DA88));

    private static int[] pairs(int... codePoints) {
        int[] ranges = new int[codePoints.length * 2];
        for (int i = 0; i < codePoints.length; i++) {
            ranges[2 * i] = codePoints[i];
            ranges[2 * i + 1] = codePoints[i];
        }
        return ranges;
    }

    /** Indices of the tokens that start a sentence (spaCy's Sentencizer.predict); empty for no tokens. */
    public static int[] sentenceStarts(Tokens tokens) {
        int n = tokens.size();
        if (n == 0) {
            return new int[0];
        }
        int[] starts = new int[Math.min(n, 16)];
        int count = 1; // starts[0] = 0: the first token always starts a sentence
        boolean seenFinal = false;
        String text = tokens.text();
        for (int i = 0; i < n; i++) {
            int start = tokens.start(i);
            int end = tokens.end(i);
            boolean isFinal = isSingleSentenceFinal(text, start, end);
            if (seenFinal && !isFinal && !PyText.isPunct(text, start, end)) {
                if (count == starts.length) {
                    starts = java.util.Arrays.copyOf(starts, count * 2);
                }
                starts[count++] = i;
                seenFinal = false;
            } else if (isFinal) {
                seenFinal = true;
            }
        }
        return java.util.Arrays.copyOf(starts, count);
    }

    private static boolean isSingleSentenceFinal(String text, int start, int end) {
        int cp = text.codePointAt(start);
        return start + Character.charCount(cp) == end && SENTENCE_FINAL.contains(cp);
    }

    /** The sentence texts ({@code sent.text} for each of {@code doc.sents}), each stripped, empty ones dropped. */
    public static List<String> sentences(Tokens tokens) {
        int[] starts = sentenceStarts(tokens);
        String text = tokens.text();
        List<String> out = new ArrayList<>(starts.length);
        for (int s = 0; s < starts.length; s++) {
            // A sentence runs to the next sentence's first token: tokens plus their trailing spaces tile the text.
            int from = tokens.start(starts[s]);
            int to = s + 1 < starts.length ? tokens.start(starts[s + 1]) : text.length();
            String sentence = PyText.strip(text, from, to);
            if (!sentence.isEmpty()) {
                out.add(sentence);
            }
        }
        return out;
    }
}
