package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinhashClusterTest {
    @TempDir
    Path tmp;

    static void writeDups(Path file, int... quads) throws IOException {
        ByteBuffer bb = ByteBuffer.allocate(quads.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : quads) {
            bb.putInt(v);
        }
        Files.createDirectories(file.getParent());
        Files.write(file, bb.array());
    }

    static int[] readInts(Path file) throws IOException {
        var ib = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] out = new int[ib.remaining()];
        ib.get(out);
        return out;
    }

    void cluster(Path dups, Path out, boolean keepFirst) throws IOException {
        cluster(dups, out, keepFirst ? MinhashClusterStep.Keep.FIRST : MinhashClusterStep.Keep.DATATROVE, null);
    }

    void cluster(Path dups, Path out, MinhashClusterStep.Keep keep, Path sigs) throws IOException {
        DedupCorpus.run(new MinhashClusterStep(dups, out, MinhashConfig.DEFAULT, keep, sigs, true, 3), List.of(), 0, 1, tmp);
    }

    @Test
    void chainOfPairsAcrossManyRanksIsOneCluster() throws IOException {
        // pair i links (rank i, doc 7) and (rank i+1, doc 7); the 100 pairs are spread over 14 bucket files
        Path dups = tmp.resolve("dups");
        for (int bucket = 0; bucket < 14; bucket++) {
            int[] quads = new int[0];
            for (int i = bucket; i < 100; i += 14) {
                quads = java.util.Arrays.copyOf(quads, quads.length + 4);
                System.arraycopy(new int[] {i, 7, i + 1, 7}, 0, quads, quads.length - 4, 4);
            }
            writeDups(MinhashBucketsStep.dupsFile(dups, bucket, 0), quads);
        }
        Path out = tmp.resolve("out");
        cluster(dups, out, false);
        int removed = 0;
        for (int rank = 0; rank <= 100; rank++) {
            Path remove = MinhashClusterStep.removeFile(out, rank);
            if (Files.exists(remove)) {
                assertArrayEquals(new int[] {7}, readInts(remove));
                removed++;
            }
            assertArrayEquals(new int[] {7, 0}, readInts(MinhashClusterStep.clustersFile(out, rank)));
            assertArrayEquals(new int[] {7, 101}, readInts(MinhashClusterStep.sizesFile(out, rank)));
        }
        assertEquals(100, removed, "one survivor among 101 documents");
    }

    @Test
    void survivorFollowsUnionBySizeOrFirstDocument() throws IOException {
        Path dups = tmp.resolve("dups");
        // (0,2)-(0,3) first makes a set of two rooted at doc 2; joining doc 1 keeps the larger set's root
        writeDups(MinhashBucketsStep.dupsFile(dups, 0, 0), 0, 2, 0, 3, 0, 1, 0, 2, 0, 8, 0, 9);
        for (int bucket = 1; bucket < 14; bucket++) {
            writeDups(MinhashBucketsStep.dupsFile(dups, bucket, 0));
        }
        Path datatrove = tmp.resolve("datatrove");
        cluster(dups, datatrove, false);
        assertArrayEquals(new int[] {1, 3, 9}, readInts(MinhashClusterStep.removeFile(datatrove, 0)));
        // cluster ids follow each cluster's first document: {1,2,3} is 0, {8,9} is 1
        assertArrayEquals(new int[] {1, 0, 2, 0, 3, 0, 8, 1, 9, 1},
                readInts(MinhashClusterStep.clustersFile(datatrove, 0)));
        Path first = tmp.resolve("first");
        cluster(dups, first, true);
        assertArrayEquals(new int[] {2, 3, 9}, readInts(MinhashClusterStep.removeFile(first, 0)));
        // lengths of documents 0..9 of rank 0: doc 3 is the longest of {1,2,3}, 8 and 9 tie (first stays)
        Path sigs = tmp.resolve("sigs");
        writeDups(MinhashSignatureStep.lengthsFile(sigs, 0), 5, 10, 20, 30, 5, 5, 5, 5, 40, 40);
        Path longest = tmp.resolve("longest");
        cluster(dups, longest, MinhashClusterStep.Keep.LONGEST, sigs);
        assertArrayEquals(new int[] {1, 2, 9}, readInts(MinhashClusterStep.removeFile(longest, 0)));
    }

    @Test
    void truncatedDupsFileIsNamed() throws IOException {
        Path dups = tmp.resolve("dups");
        for (int bucket = 0; bucket < 14; bucket++) {
            writeDups(MinhashBucketsStep.dupsFile(dups, bucket, 0), 0, 1, 0, 2);
        }
        Path bad = MinhashBucketsStep.dupsFile(dups, 5, 0);
        Files.write(bad, new byte[] {1, 2, 3, 4, 5, 6, 7});
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> cluster(dups, tmp.resolve("out"), false));
        assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("out").resolve("000000.remove")));
    }

    @Test
    void missingDupsFilesAreReported() throws IOException {
        Path dups = tmp.resolve("dups");
        writeDups(MinhashBucketsStep.dupsFile(dups, 0, 0), 0, 1, 0, 2);
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> cluster(dups, tmp.resolve("out"), false));
        assertTrue(e.getMessage().contains("not a multiple of num_buckets"), e.getMessage());
    }
}
