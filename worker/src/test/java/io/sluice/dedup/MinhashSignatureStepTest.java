package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinhashSignatureStepTest {
    @TempDir
    Path tmp;

    @Test
    void bucketFilesAreByteIdenticalToDatatroveStage1() throws Exception {
        Path shared = DedupCorpus.shared();
        DedupCorpus.assumeSpacyTokenizer();
        List<Document> docs = DedupCorpus.read(shared.resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst"));
        Path out = tmp.resolve("sigs");
        List<Document> passed = DedupCorpus.run(new MinhashSignatureStep(out, MinhashConfig.DEFAULT), docs, 0, 1, tmp);
        assertEquals(docs.size(), passed.size(), "documents pass through");
        Path golden = shared.resolve("data/golden/minhash/clough_stevenson_plagiarism");
        for (int bi = 0; bi < 14; bi++) {
            Path ours = MinhashSignatureStep.sigFile(out, bi, 0);
            Path theirs = MinhashSignatureStep.sigFile(golden, bi, 0);
            assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours), ours.toString());
        }
        try (Stream<Path> s = Files.walk(out)) {
            assertEquals(14, s.filter(Files::isRegularFile).count(), "no temporary files left");
        }
    }
}
