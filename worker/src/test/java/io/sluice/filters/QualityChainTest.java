package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The four quality filters chained as a FineWeb-style pipeline runs them
 * (gopher_quality -> gopher_repetition -> c4_quality, which rewrites the text -> fineweb_quality).
 */
class QualityChainTest {
    static List<Filter> chain() {
        StepArgs none = StepArgs.of(Map.of());
        return List.of(new GopherQualityFilter(none), new GopherRepetitionFilter(StepArgs.of(Map.of())),
                new C4QualityFilter(StepArgs.of(Map.of())), new FineWebQualityFilter(StepArgs.of(Map.of())));
    }

    static boolean keptByChain(List<Filter> chain, Document doc) {
        for (Filter f : chain) {
            if (!f.filter(doc).keep()) {
                return false;
            }
        }
        return true;
    }

    /** Precision and recall of "kept by the chain" against the human label "high quality". */
    @Test
    void chainAgainstDclmHumanLabels() throws IOException {
        List<Filter> chain = chain();
        int keptGood = 0;
        int kept = 0;
        int good = 0;
        int total = 0;
        for (JsonNode n : SharedData.lines(SharedData.file("quality/dclm_human_labels.jsonl.zst"))) {
            boolean isGood = n.get("metadata").get("quality_label").asInt() == 1;
            boolean k = keptByChain(chain, SharedData.document(n));
            total++;
            good += isGood ? 1 : 0;
            kept += k ? 1 : 0;
            keptGood += k && isGood ? 1 : 0;
        }
        double precision = (double) keptGood / kept;
        double recall = (double) keptGood / good;
        System.out.printf("%ndclm_human_labels: %d documents, %d labelled 1 (base rate %.1f%%); chain keeps %d%n"
                        + "  precision %.1f%%, recall %.1f%%%n",
                total, good, 100.0 * good / total, kept, 100 * precision, 100 * recall);
        // the filters should pick high-quality documents better than chance
        assertTrue(precision > (double) good / total, "precision " + precision);
    }

    /** One thread, the four filters in a chain, on web_dolma_cc text; prints MB/s (no threshold). */
    @Test
    void chainSpeedOnWebDolmaCc() throws IOException {
        List<Document> docs = SharedData.documents(SharedData.file("corpus/web_dolma_cc.jsonl.zst"));
        long bytes = 0;
        for (Document d : docs) {
            bytes += d.text().getBytes(StandardCharsets.UTF_8).length;
        }
        List<Filter> chain = chain();
        int rounds = 5;
        long best = Long.MAX_VALUE;
        int kept = 0;
        for (int r = 0; r < rounds; r++) {
            kept = 0;
            long t = System.nanoTime();
            for (Document d : docs) {
                // a fresh copy: c4_quality rewrites the text
                kept += keptByChain(chain, new Document(d.id(), d.text(), null)) ? 1 : 0;
            }
            best = Math.min(best, System.nanoTime() - t);
        }
        System.out.printf("%nquality chain on web_dolma_cc (%d docs, %.2f MB): kept %d, best of %d rounds %.0f ms = %.1f MB/s, %.0f docs/s (one thread)%n",
                docs.size(), bytes / 1e6, kept, rounds, best / 1e6, bytes / 1e6 / (best / 1e9), docs.size() / (best / 1e9));
        assertTrue(kept > 0);
    }
}
