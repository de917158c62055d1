package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.text.EnglishText;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * c4_quality counts the words of the text it rewrites from the words of the original (so fineweb_quality
 * need not tokenize again): the count must equal a fresh tokenization of the rewritten text.
 */
class C4WordCountTest {
    @Test
    void keptLinesWordCountEqualsTokenizingTheRewrittenText() throws IOException {
        C4QualityFilter c4 = new C4QualityFilter(StepArgs.of(Map.of()));
        int rewritten = 0;
        int counted = 0;
        for (String corpus : List.of("web_c4_samples", "web_dolma_cc", "web_oscar_c4_mixed", "email_spamassassin",
                "prose_linux_kernel_docs", "prose_nltk_corpora")) {
            for (Document d : SharedData.documents(SharedData.file("corpus/" + corpus + ".jsonl.zst"))) {
                Document doc = new Document(d.id(), d.text(), null);
                Words.of(doc.text()); // as gopher_quality leaves them for the next filter
                if (!c4.filter(doc).keep() || doc.text().equals(d.text())) {
                    continue;
                }
                rewritten++;
                if (Words.hasCount(doc.text())) {
                    counted++;
                    int fresh = EnglishText.wordSpans(EnglishText.tokenize(doc.text())).size();
                    assertEquals(fresh, Words.count(doc.text()), corpus + " " + d.id());
                }
            }
        }
        System.out.printf("c4 rewrote %d documents; counted the words of %d without tokenizing%n", rewritten, counted);
        // only lines that lost a citation mark leave a document uncounted
        assertTrue(counted > 0.9 * rewritten && rewritten > 1000, counted + " of " + rewritten);
    }

    @Test
    void withoutTheOriginalWordsNothingIsRemembered() {
        C4QualityFilter c4 = new C4QualityFilter(StepArgs.of(Map.of()));
        String text = "A first line that ends well.\nshort\n" + "Another sentence is here. ".repeat(6).strip()
                + "\nThe last line that passes too.";
        Document doc = new Document("x", text, null);
        Words.of("some other text"); // the words at hand are not this text's
        assertTrue(c4.filter(doc).keep());
        assertTrue(!doc.text().equals(text) && !Words.hasCount(doc.text()));
        assertEquals(EnglishText.wordSpans(EnglishText.tokenize(doc.text())).size(), Words.count(doc.text()));
    }
}
