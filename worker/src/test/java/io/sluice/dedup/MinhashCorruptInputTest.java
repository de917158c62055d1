package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged intermediate files fail with the file's name instead of giving wrong results. */
class MinhashCorruptInputTest {
    @TempDir
    Path tmp;
    List<Document> docs;
    Path sigs;

    @BeforeEach
    void signatures() throws IOException {
        docs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // every 4th document repeats an earlier one, so there are duplicates to find
            int text = i % 4 == 3 ? i - 3 : i;
            docs.add(new Document("d" + i, randomWords(text), null));
        }
        sigs = tmp.resolve("sigs");
        DedupCorpus.run(new MinhashSignatureStep(sigs, MinhashConfig.DEFAULT), docs, 0, 1, tmp);
    }

    /** 30 random lowercase words, the same for the same seed. */
    static String randomWords(int seed) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < 30; w++) {
            int len = 2 + rnd.nextInt(8);
            for (int c = 0; c < len; c++) {
                sb.append((char) ('a' + rnd.nextInt(26)));
            }
            sb.append(' ');
        }
        return sb.toString();
    }

    void buckets(int rank) throws IOException {
        DedupCorpus.run(new MinhashBucketsStep(sigs, tmp.resolve("dups"), MinhashConfig.DEFAULT), List.of(), rank, 14, tmp);
    }

    @Test
    void cleanRunFindsTheRepeatedDocuments() throws IOException {
        for (int r = 0; r < 14; r++) {
            buckets(r);
        }
        Path out = tmp.resolve("remove");
        DedupCorpus.run(new MinhashClusterStep(tmp.resolve("dups"), out, MinhashConfig.DEFAULT,
                MinhashClusterStep.Keep.DATATROVE, null, false, 2),
                List.of(), 0, 1, tmp);
        List<Document> kept = DedupCorpus.run(StepRegistry.create("minhash_filter",
                StepArgs.of(Map.of("input", out.toString()))), docs, 0, 1, tmp);
        assertEquals(30, kept.size());
        assertTrue(kept.stream().noneMatch(d -> Integer.parseInt(d.id().substring(1)) % 4 == 3));
    }

    @Test
    void truncatedSignatureFileIsNamed() throws IOException {
        Path file = MinhashSignatureStep.sigFile(sigs, 3, 0);
        byte[] b = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(b, b.length - 5));
        IOException e = assertThrows(IOException.class, () -> buckets(3));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void unsortedSignatureFileIsNamed() throws IOException {
        Path file = MinhashSignatureStep.sigFile(sigs, 2, 0);
        byte[] b = Files.readAllBytes(file);
        byte[] swapped = b.clone();
        System.arraycopy(b, 0, swapped, 68, 68); // record 1 := record 0, record 0 := record 1
        System.arraycopy(b, 68, swapped, 0, 68);
        Files.write(file, swapped);
        IOException e = assertThrows(IOException.class, () -> buckets(2));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("corrupt"), e.getMessage());
    }

    @Test
    void truncatedRemoveFileIsNamed() throws IOException {
        Path out = tmp.resolve("remove");
        Files.createDirectories(out);
        Path remove = MinhashClusterStep.removeFile(out, 0);
        Files.write(remove, new byte[] {3, 0, 0, 0, 7, 0});
        IOException e = assertThrows(IOException.class, () -> DedupCorpus.run(StepRegistry.create("minhash_filter",
                StepArgs.of(Map.of("input", out.toString()))), docs, 0, 1, tmp));
        assertTrue(e.getMessage().contains(remove.toString()), e.getMessage());
    }

    @Test
    void removeListLongerThanInputIsAnError() throws IOException {
        Path out = tmp.resolve("remove");
        Files.createDirectories(out);
        Path remove = MinhashClusterStep.removeFile(out, 0);
        Files.write(remove, new byte[] {3, 0, 0, 0, (byte) 200, 0, 0, 0});
        IOException e = assertThrows(IOException.class, () -> DedupCorpus.run(StepRegistry.create("minhash_filter",
                StepArgs.of(Map.of("input", out.toString()))), docs, 0, 1, tmp));
        assertTrue(e.getMessage().contains("names document index 200"), e.getMessage());
    }

    @Test
    void bucketTasksMustBeAMultipleOfNumBuckets() {
        IOException e = assertThrows(IOException.class, () -> DedupCorpus.run(
                new MinhashBucketsStep(sigs, tmp.resolve("dups"), MinhashConfig.DEFAULT), List.of(), 0, 5, tmp));
        assertTrue(e.getMessage().contains("multiple of num_buckets"), e.getMessage());
    }

    @Test
    void unknownKeyAndBadValuesAreRejectedAtLoad() {
        Exception e = assertThrows(RuntimeException.class, () -> StepRegistry.create("minhash_signature",
                StepArgs.of(Map.of("output", "x", "precision", 16))));
        assertTrue(e.getMessage().contains("precision"), e.getMessage());
        e = assertThrows(RuntimeException.class, () -> StepRegistry.create("minhash_cluster",
                StepArgs.of(Map.of("input", "x", "output", "y", "keep", "last"))));
        assertTrue(e.getMessage().contains("keep"), e.getMessage());
    }
}
