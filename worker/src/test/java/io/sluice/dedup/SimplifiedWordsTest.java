package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import io.sluice.text.EnglishText;
import io.sluice.text.TextNormalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunk-cached tokenization equals tokenizing the whole simplified text. */
class SimplifiedWordsTest {
    @Test
    void sameWordsAsTheWholeTextTokenizer() throws Exception {
        SimplifiedWords words = new SimplifiedWords();
        String tricky = "i didnt say we cannot go  0km at 0am gonna see http www example com x\u200by caf\u00e9s 0 0";
        assertEquals(EnglishText.words(tricky), words.words(tricky));
        assertEquals(EnglishText.words(tricky), words.words(tricky), "again, from the cache");
        List<Document> docs = DedupCorpus.read(DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst"));
        for (Document d : docs) {
            String s = TextNormalizer.simplify(d.text());
            assertEquals(EnglishText.words(s), words.words(s), d.id());
        }
    }
}
