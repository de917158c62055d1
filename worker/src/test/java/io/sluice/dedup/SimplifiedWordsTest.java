package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.text.EnglishText;
import io.sluice.text.SimplifiedChunks;
import io.sluice.text.TextNormConfig;
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

    /**
     * Taking the chunks as simplification makes them gives the words of the simplified string, with and
     * without stripping diacritics, on raw text in many scripts (UDHR has hundreds of languages).
     */
    @Test
    void chunksStraightFromSimplificationGiveTheSameWords() throws Exception {
        TextNormConfig keepMarks = new TextNormConfig(true, true, true, false, true, false, false);
        String[] cases = {"I DIDN'T say: we CANNOT go 12km at 3am!", "Café naïve x \u0301 y", "\u0301 lead", "ÀB１２,３ x",
            "Ǆemal ǅ ＡＢＣ％ ≠ a\uD801\uDC00b \uD800 c", "", " ... ", "İİİİ İSTANBUL'da İ1 xİ"};
        for (String c : cases) {
            for (TextNormConfig config : List.of(TextNormConfig.DEFAULT, keepMarks)) {
                assertEquals(viaTokenizer(TextNormalizer.simplify(c, config)), viaSimplification(c, config), c);
            }
        }
        int checked = 0;
        for (String file : List.of("data/dedup/clough_stevenson_plagiarism.jsonl.zst", "data/lid/udhr.jsonl.zst",
                "data/corpus/web_dolma_cc.jsonl.zst")) {
            for (Document d : DedupCorpus.read(DedupCorpus.shared().resolve(file))) {
                if (d.text().indexOf('\u03A3') >= 0) {
                    continue; // split declines these (below); the signer simplifies them step by step
                }
                assertEquals(viaTokenizer(TextNormalizer.simplify(d.text())), viaSimplification(d.text(), TextNormConfig.DEFAULT),
                        file + " " + d.id());
                checked++;
            }
        }
        assertTrue(checked > 1000, "documents checked: " + checked);
        assertFalse(new SimplifiedChunks().split("ΟΔΟΣ", TextNormConfig.DEFAULT, new SimplifiedWords(new JoinedWords())),
                "capital sigma lowercases by its neighbours: the caller must simplify step by step");
    }

    private static String viaSimplification(String raw, TextNormConfig config) {
        JoinedWords out = new JoinedWords();
        assertTrue(new SimplifiedChunks().split(raw, config, new SimplifiedWords(out)), raw);
        return out.count() + ":" + new String(out.bytes(), 0, out.start(out.count()), StandardCharsets.UTF_8);
    }

    /** The joined words as text, plus their count, so a different split of the same characters shows. */
    private static String viaChunks(String simplified) {
        JoinedWords out = new JoinedWords();
        new SimplifiedWords(out).join(simplified);
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
