package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import io.sluice.text.EnglishText;
import io.sluice.text.TextNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunk-by-chunk tokenization with the plain-word shortcut equals tokenizing the whole simplified text. */
class SimplifiedWordsTest {
    @Test
    void sameWordsAsTheWholeTextTokenizer() throws Exception {
        String tricky = "i didnt say we cannot go  0km at 0am gonna see http www example com x\u200by caf\u00e9s 0 0";
        assertEquals(viaTokenizer(tricky), viaChunks(tricky));
        assertEquals(viaTokenizer(tricky), viaChunks(tricky), "again, from the tokenizer's memo");
        List<Document> docs = DedupCorpus.read(DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst"));
        for (Document d : docs) {
            String s = TextNormalizer.simplify(d.text());
            assertEquals(viaTokenizer(s), viaChunks(s), d.id());
        }
    }

    /** The joined words as text, plus their count, so a different split of the same characters shows. */
    private static String viaChunks(String simplified) {
        JoinedWords out = new JoinedWords();
        SimplifiedWords.join(simplified, out);
        return out.count() + ":" + new String(out.bytes(), 0, out.start(out.count()), StandardCharsets.UTF_8);
    }

    private static String viaTokenizer(String simplified) {
        JoinedWords out = new JoinedWords();
        for (String w : EnglishText.words(simplified)) {
            out.add(w);
        }
        return out.count() + ":" + new String(out.bytes(), 0, out.start(out.count()), StandardCharsets.UTF_8);
    }
}
