package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.text.PackedChars;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link PackedWordSet} as a set: growing past its first size within a document, and emptied between documents. */
class PackedWordSetTest {
    @Test
    void countsTheDistinctWordsOfEachDocumentLikeAHashSet() {
        PackedWordSet set = new PackedWordSet();
        Random rnd = new Random(11);
        for (int doc = 0; doc < 40; doc++) {
            set.clear(doc % 2 == 0 ? 4 : 1000); // a small first size, so that most documents make it grow
            Set<String> expected = new HashSet<>();
            int added = 0;
            int words = rnd.nextInt(30_000);
            for (int k = 0; k < words; k++) {
                // a NUL inside, and words that differ only in length ("ab" and "ab\0"), must stay apart
                String w = Integer.toString(rnd.nextInt(1 + rnd.nextInt(20_000)), 36) + (rnd.nextInt(8) == 0 ? "\0" : "");
                char[] chars = (w + " ".repeat(PackedChars.MAX_CHARS)).toCharArray();
                long k0 = PackedChars.pack(chars, 0, w.length(), 0);
                long k1 = PackedChars.pack(chars, 0, w.length(), 1);
                long k2 = PackedChars.pack(chars, 0, w.length(), 2);
                added += set.add(k0, k1, k2, w.length(), PackedChars.hash(k0, k1, k2));
                expected.add(w);
            }
            assertEquals(expected.size(), added, "document " + doc + " of " + words + " words");
        }
    }

    @Test
    void holdsTheShortWordsOfAList() {
        PackedWordSet stop = PackedWordSet.of(List.of("the", "and", "antidisestablishmentarianism", "x"));
        for (String w : List.of("the", "and", "x", "The", "an", "andx", "th", "antidisestablishmentarianism")) {
            char[] chars = (w + " ".repeat(PackedChars.MAX_CHARS)).toCharArray();
            int length = Math.min(w.length(), PackedChars.MAX_CHARS);
            long k0 = PackedChars.pack(chars, 0, length, 0);
            long k1 = PackedChars.pack(chars, 0, length, 1);
            long k2 = PackedChars.pack(chars, 0, length, 2);
            assertEquals(List.of("the", "and", "x").contains(w), stop.contains(k0, k1, k2, length, PackedChars.hash(k0, k1, k2)), w);
        }
    }
}
