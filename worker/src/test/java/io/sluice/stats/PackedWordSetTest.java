package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
                added += set.add(w);
                expected.add(w);
            }
            assertEquals(expected.size(), added, "document " + doc + " of " + words + " words");
        }
    }

    @Test
    void holdsTheShortWordsOfAList() {
        PackedWordSet stop = PackedWordSet.of(List.of("the", "and", "antidisestablishmentarianism", "x"));
        // the long stop word is left out, and its first 12 units are not a word of the list
        for (String w : List.of("the", "and", "x", "The", "an", "andx", "th", "antidisestab")) {
            assertEquals(List.of("the", "and", "x").contains(w), stop.contains(w), w);
        }
    }
}
