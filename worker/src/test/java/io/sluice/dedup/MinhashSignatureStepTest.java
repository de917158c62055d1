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
            assertEquals(16, s.filter(Files::isRegularFile).count(), "14 buckets + lengths + minhash_keys.json, no temporary files left");
        }
    }

    @Test
    void sortingInRunsOnDiskGivesTheSameFiles() throws Exception {
        List<Document> docs = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            docs.add(new Document("d" + i, MinhashCorruptInputTest.randomWords(i % 250), null));
        }
        Path inMemory = tmp.resolve("mem");
        Path spilled = tmp.resolve("spill");
        DedupCorpus.run(new MinhashSignatureStep(inMemory, MinhashConfig.DEFAULT), docs, 0, 1, tmp);
        // 1000 bytes hold 16 records: 300 records make 19 runs to merge
        DedupCorpus.run(new MinhashSignatureStep(spilled, MinhashConfig.DEFAULT, 1000), docs, 0, 1, tmp);
        for (int bi = 0; bi < 14; bi++) {
            assertArrayEquals(Files.readAllBytes(MinhashSignatureStep.sigFile(inMemory, bi, 0)),
                    Files.readAllBytes(MinhashSignatureStep.sigFile(spilled, bi, 0)));
        }
        try (Stream<Path> s = Files.walk(spilled)) {
            assertEquals(16, s.filter(Files::isRegularFile).count(), "no run files left");
        }
    }

    @Test
    void precision32AndSha1WriteSmallerSortedRecords() throws Exception {
        List<Document> docs = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            docs.add(new Document("d" + i, MinhashCorruptInputTest.randomWords(i), null));
        }
        docs.add(new Document("short", "only four words here", null));
        MinhashConfig c32 = new MinhashConfig(5, 14, 8, 1, 32, "sha1", io.sluice.text.TextNormConfig.DEFAULT);
        Path out = tmp.resolve("sig32");
        DedupCorpus.run(new MinhashSignatureStep(out, c32), docs, 0, 1, tmp);
        byte[] b = Files.readAllBytes(MinhashSignatureStep.sigFile(out, 0, 0));
        assertEquals(50 * 36, b.length, "8 uint32 + index per signed document; the 4-word one has none");
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long prev = -1;
        for (int r = 0; r < 50; r++) {
            long first = Integer.toUnsignedLong(bb.getInt(r * 36));
            org.junit.jupiter.api.Assertions.assertTrue(first >= prev, "sorted");
            prev = first;
        }
    }
}
