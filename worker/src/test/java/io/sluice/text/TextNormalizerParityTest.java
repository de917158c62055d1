package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default configuration simplifies in one fused pass; the step-by-step path is datatrove's order
 * of operations. Both must agree on real text in every script we have: the web and prose corpora and
 * the language-ID sets (UDHR and Leipzig sentences, hundreds of languages).
 */
class TextNormalizerParityTest {
    private static final Path SHARED = Path.of(System.getProperty("sluice.shared", "../shared"), "data");

    @Test
    void fusedPassEqualsStepByStepOnRealText() throws IOException {
        List<Path> files = List.of(SHARED.resolve("lid/udhr.jsonl.zst"), SHARED.resolve("lid/leipzig_sentences.jsonl.zst"),
                SHARED.resolve("corpus/web_dolma_cc.jsonl.zst"), SHARED.resolve("corpus/email_spamassassin.jsonl.zst"));
        assumeTrue(files.stream().allMatch(Files::exists), "shared data not found");
        int checked = 0;
        for (Path file : files) {
            for (Document doc : JsonlReader.readAll(file)) {
                String text = doc.text();
                assertEquals(TextNormalizer.simplifyStepByStep(text, TextNormConfig.DEFAULT),
                        TextNormalizer.simplify(text, TextNormConfig.DEFAULT), () -> file + " id " + doc.id());
                checked++;
            }
        }
        assertEquals(true, checked > 1000, "documents checked: " + checked);
    }

    @Test
    void fusedPassEdgeCases() {
        String[] cases = {"", " ", "ÀB１２,３ x", "İstanbul ΣΟΦΙΑ", "a\uD801\uDC00b \uD800 c", "x \u0301 y", "٣٫٥ apples",
            "12. 3", "TAB\there\nnew\u00a0line\u3000end ", "...", "Ǆemal ǅ", "ＡＢＣ％", "İSTANBUL'da İ1 xİ",
            "İ".repeat(100) + " " + "aİ".repeat(70), "İ" + "a".repeat(100), "İ".repeat(40) + "ab".repeat(100)};
        TextNormConfig keepMarks = new TextNormConfig(true, true, true, false, true, false, false);
        for (String c : cases) {
            assertEquals(TextNormalizer.simplifyStepByStep(c, TextNormConfig.DEFAULT), TextNormalizer.simplify(c), c);
            assertEquals(TextNormalizer.simplifyStepByStep(c, keepMarks), TextNormalizer.simplify(c, keepMarks), c);
        }
    }
}
