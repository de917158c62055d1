package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.io.TestFiles;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deduplicating one corpus against another's index: {@code minhash_build_index}, and
 * {@code minhash_buckets}' {@code index_folder}, {@code only_dedup_in_index} and {@code create_index_name}.
 * Corpus A has six documents, a5 a copy of a0; corpus B holds two copies of a1, one of a3, two copies of
 * a text of its own (b3, b4) and one unique text.
 */
class MinhashIndexTest {
    private static final int BUCKETS = 14;
    private static final int BUCKET_RECORD = 8 * 8; // 8 hashes of 8 bytes, no document number
    @TempDir
    Path root;
    private Path corpusA;
    private Path corpusB;

    @BeforeEach
    void corpora() throws Exception {
        List<String> a = new ArrayList<>();
        Random random = new Random(42);
        for (int i = 0; i < 5; i++) {
            a.add(text(random));
        }
        a.add(a.get(0));
        String own = text(random);
        List<String> b = List.of(a.get(1), a.get(1), a.get(3), own, own, text(random));
        corpusA = root.resolve("a");
        corpusB = root.resolve("b");
        TestFiles.write(corpusA.resolve("a.jsonl"), docs("a", a));
        TestFiles.write(corpusB.resolve("b.jsonl"), docs("b", b));
    }

    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < 80; w++) { // letters only: the text normalisation turns every number into "0"
            sb.append(w == 0 ? "" : " ");
            for (int c = 0; c < 6; c++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
        }
        return sb.append('.').toString();
    }

    private static String docs(String prefix, List<String> texts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < texts.size(); i++) {
            sb.append(TestFiles.doc(prefix + i, texts.get(i))).append('\n');
        }
        return sb.toString();
    }

    @Test
    void buildIndexWritesEachDistinctSignatureOncePerBucketSorted() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            Path index = root.resolve(String.format("idx/bucket_%03d/A.minhash.index", bucket));
            long[][] records = records(Files.readAllBytes(index));
            assertEquals(5, records.length, index.toString()); // a5 = a0 is written once
            for (int r = 1; r < records.length; r++) {
                assertTrue(java.util.Arrays.compare(records[r - 1], records[r]) < 0, "sorted and distinct");
            }
        }
    }

    @Test
    void documentsMatchingTheIndexAreRemovedAndOnlyThey() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        assertTrue(run("dedup", dedupB("index_folder: ROOT/idx")));
        // every copy of an indexed text goes (datatrove keeps the second copy of a1); b3 and b4 stay,
        // as only_dedup_in_index (the default) ignores duplicates within B
        assertEquals(List.of("b3", "b4", "b5"), ids(root.resolve("out")));
        // an index record names no document, so whatever matches the index is one cluster, as in datatrove
        assertEquals(Map.of("b0", 3, "b1", 3, "b2", 3), clusterSizes(root.resolve("removed")));
        assertEquals(3 * BUCKETS, indexPairs(root.resolve("dups")));
    }

    /**
     * An index this corpus's documents could match nothing in is refused before the job runs. Before, a folder
     * without index files (the index's parent, say) or an index of other n_grams gave a run that removed
     * nothing and exited 0, and an index of other buckets failed half the bucket ranks on "corrupt index file".
     */
    @Test
    void anIndexMadeWithOtherKeysOrWithoutFilesIsRefused() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        assertEquals("holds no index files (bucket_NNN/<name>.minhash.index): every document would match nothing in it",
                refusal("dedup", dedupB("index_folder: ROOT")).getMessage().replaceFirst(".*index_folder \\S+ ", ""));
        // an index made (by another job) with more buckets, or with fewer hashes per bucket: told from its files
        assertTrue(run("build28", signatures(corpusA, "sigs_a28").replace("{output: ROOT/sigs_a28}", "{output: ROOT/sigs_a28, num_buckets: 28}")
                + buildIndex("sigs_a28", "idx28", "A").replace("tasks: 14", "tasks: 28").replace("index_name: A}", "index_name: A, num_buckets: 28}")));
        String message = refusal("dedup", dedupB("index_folder: ROOT/idx28")).getMessage();
        assertTrue(message.contains("holds bucket_014/A.minhash.index, past the 14 buckets of this step"), message);
        assertTrue(run("build3", signatures(corpusA, "sigs_a3").replace("{output: ROOT/sigs_a3}", "{output: ROOT/sigs_a3, hashes_per_bucket: 3}")
                + buildIndex("sigs_a3", "idx3", "A").replace("index_name: A}", "index_name: A, hashes_per_bucket: 3}")));
        message = refusal("dedup", dedupB("index_folder: ROOT/idx3")).getMessage();
        assertTrue(message.contains("not a whole number of this step's index records (8 hashes of 8 bytes)"), message);
        // built in the same job from signatures of other n_grams: told from the steps
        String both = signatures(corpusA, "sigs_a2").replace("{output: ROOT/sigs_a2}", "{output: ROOT/sigs_a2, n_grams: 4}")
                + buildIndex("sigs_a2", "idx2", "A").replace("index_name: A}", "index_name: A, n_grams: 4}")
                + dedupB("index_folder: ROOT/idx2");
        message = refusal("both", both).getMessage();
        assertTrue(message.contains("deduplicates against the index in " + root.resolve("idx2") + ", built from signatures"
                + " made by ") && message.contains("with n_grams 4, seed 1") && message.contains("with n_grams 5, seed 1"),
                message);
    }

    /**
     * n_grams, seed and hash_fc of signatures no step of the job made, and that record no keys (datatrove's),
     * are not known: the steps reading them take those keys without using them. Before, an index built here from another job's n_grams 3 signatures, read
     * by a block of n_grams 3, was refused as made with n_grams 5 (the build step's default).
     */
    @Test
    void anIndexOfSignaturesMadeElsewhereIsComparedByLayoutOnly() throws Exception {
        assertTrue(run("sigs3", signatures(corpusA, "sigs_a3").replace("{output: ROOT/sigs_a3}", "{output: ROOT/sigs_a3, n_grams: 3}")));
        Files.delete(root.resolve("sigs_a3/minhash_keys.json")); // as datatrove's signatures: keys unknown
        String dedup = buildIndex("sigs_a3", "idx3", "A") + dedupB("index_folder: ROOT/idx3")
                .replace("{output: ROOT/sigs_b}", "{output: ROOT/sigs_b, n_grams: 3}");
        assertTrue(run("dedup3", dedup));
        assertEquals(List.of("b3", "b4", "b5"), ids(root.resolve("out")));
    }

    /**
     * The signature and index folders record the MinHash keys they were made with (minhash_keys.json, beside
     * the bucket folders), so that an index made by another job with other n_grams is refused rather than
     * matched against and found to hold nothing; so is adding to an index of other keys. An index without
     * the file (datatrove's) is read unchecked, as before.
     */
    @Test
    void anIndexOfOtherJobsRecordsItsKeysAndOneOfOtherKeysIsRefused() throws Exception {
        assertTrue(run("build4", signatures(corpusA, "sigs_a4").replace("{output: ROOT/sigs_a4}", "{output: ROOT/sigs_a4, n_grams: 4}")
                + buildIndex("sigs_a4", "idx4", "A")));
        Map<String, Object> keys = Map.of("n_grams", 4, "seed", 1, "hash_fc", "xxhash", "num_buckets", 14,
                "hashes_per_bucket", 8, "precision", 64);
        assertEquals(keys, new ObjectMapper().readValue(root.resolve("sigs_a4/minhash_keys.json").toFile(), Map.class));
        assertEquals(keys, new ObjectMapper().readValue(root.resolve("idx4/minhash_keys.json").toFile(), Map.class));

        String message = refusal("dedup", dedupB("index_folder: ROOT/idx4")).getMessage();
        assertTrue(message.contains("index_folder " + root.resolve("idx4") + " was made with n_grams 4, seed 1")
                && message.contains("but the signatures deduplicated against it were made with n_grams 5, seed 1")
                && message.contains("no document would match the index"), message);
        // B's signatures made by another job: their keys are read from their folder
        assertTrue(run("sigs_b", signatures(corpusB, "sigs_b2")));
        String bucketsOnly = """
                  - name: buckets
                    tasks: 14
                    steps:
                      - minhash_buckets: {input: ROOT/sigs_b2, output: ROOT/dups2, index_folder: ROOT/idx4}
                """;
        message = refusal("buckets", bucketsOnly).getMessage();
        assertTrue(message.contains("was made with n_grams 4") && message.contains("deduplicated against it were made with n_grams 5"), message);
        // adding corpus B's n_grams 5 index to the n_grams 4 one
        message = refusal("add", buildIndex("sigs_b2", "idx4", "B")).getMessage();
        assertTrue(message.contains("output " + root.resolve("idx4") + " holds index files made with n_grams 4")
                && message.contains("one index cannot hold both"), message);

        // an index this job builds from them: the keys recorded with the signatures are compared
        message = refusal("both", buildIndex("sigs_a4", "idx5", "A") + dedupB("index_folder: ROOT/idx5")).getMessage();
        assertTrue(message.contains("built from signatures made by another run (" + root.resolve("sigs_a4/minhash_keys.json")
                + ") with n_grams 4") && message.contains("with n_grams 5"), message);

        // without the file, as datatrove writes an index, the keys are not known and not checked
        Files.delete(root.resolve("idx4/minhash_keys.json"));
        assertTrue(run("dedup", dedupB("index_folder: ROOT/idx4")));
        assertEquals(List.of("b0", "b1", "b2", "b3", "b4", "b5"), ids(root.resolve("out")));
    }

    /**
     * The keys file speaks for index files of other corpora only. A first crawl that creates its index and is run
     * again with other keys (after a change, or killed after recording them) reads none of its own files, and
     * runs; two steps of one job adding to one index from signatures of other keys are refused before running
     * (the second one's ranks failed).
     */
    @Test
    void onlyOtherCorporasIndexFilesAreHeldToTheRecordedKeys() throws Exception {
        String createA = signatures(corpusA, "sigs_c") + """
                  - name: buckets
                    tasks: 14
                    steps:
                      - minhash_buckets: {input: ROOT/sigs_c, output: ROOT/dups_c, index_folder: ROOT/idx_c, create_index_name: A}
                """;
        assertTrue(run("create5", createA));
        String createA4 = createA.replace("sigs_c", "sigs_c4").replace("dups_c", "dups_c4")
                .replace("{output: ROOT/sigs_c4}", "{output: ROOT/sigs_c4, n_grams: 4}").replace("create_index_name: A}", "create_index_name: A, n_grams: 4}");
        assertTrue(run("create4", createA4));
        assertEquals(4, new ObjectMapper().readTree(root.resolve("idx_c/minhash_keys.json").toFile()).get("n_grams").asInt());

        String two = signatures(corpusA, "sigs_x") + buildIndex("sigs_x", "idx_two", "A")
                + signatures(corpusB, "sigs_y").replace("{output: ROOT/sigs_y}", "{output: ROOT/sigs_y, n_grams: 4}")
                + buildIndex("sigs_y", "idx_two", "B").replace("name: index", "name: index_b");
        String message = refusal("two", two).getMessage();
        assertTrue(message.contains("adds to the index in " + root.resolve("idx_two") + " from signatures made by ")
                && message.contains("with n_grams 4") && message.contains("were made with n_grams 5")
                && message.contains("one index cannot hold both"), message);
    }

    private io.sluice.job.JobException refusal(String name, String stages) {
        String yaml = ("logging_dir: ROOT/" + name + "-logs\nstages:\n" + stages).replace("ROOT", root.toString());
        return org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> DedupCorpus.runJob(root.resolve(name + ".yaml"), yaml, new ByteArrayOutputStream()));
    }

    @Test
    void withoutOnlyDedupInIndexDuplicatesWithinTheCorpusGoToo() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        assertTrue(run("dedup", dedupB("{index_folder: ROOT/idx, only_dedup_in_index: false}")));
        assertEquals(List.of("b3", "b5"), ids(root.resolve("out")));
        // datatrove's pairs: b0 with the index, b1 with b0, b2 with the index, b4 with b3
        assertEquals(2 * BUCKETS, indexPairs(root.resolve("dups")));
    }

    @Test
    void ignoreIndexMatchesKeepsTheDocumentsTheIndexHolds() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        assertTrue(run("dedup", dedupB("index_folder: ROOT/idx").replace("output: ROOT/remove,",
                "output: ROOT/remove, ignore_index_matches: true,")));
        assertEquals(List.of("b0", "b1", "b2", "b3", "b4", "b5"), ids(root.resolve("out")));
    }

    @Test
    void anIndexCreatedByTheBucketStageEqualsTheBuiltOneAndIsNotReadBackByItsMaker() throws Exception {
        assertTrue(run("build", signatures(corpusA, "sigs_a") + buildIndex("sigs_a", "idx", "A")));
        String bucketsA = signatures(corpusA, "sigs_a2") + """
                  - name: buckets
                    tasks: 14
                    workers: 2
                    steps:
                      - minhash_buckets: {input: ROOT/sigs_a2, output: ROOT/dups_a, index_folder: ROOT/idx2, create_index_name: A}
                """;
        assertTrue(run("create", bucketsA));
        Map<String, String> dupsOfA = TestFiles.hashes(root.resolve("dups_a"));
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            assertArrayEquals(Files.readAllBytes(root.resolve(String.format("idx/bucket_%03d/A.minhash.index", bucket))),
                    Files.readAllBytes(root.resolve(String.format("idx2/bucket_%03d/A_00.minhash.index", bucket))));
        }
        assertArrayEquals(Files.readAllBytes(root.resolve("idx/minhash_keys.json")), Files.readAllBytes(root.resolve("idx2/minhash_keys.json")));
        // a second run reads the folder its own index files are in, but not them: the same pairs (a0-a5). (Its
        // signature and .dups folders go with the logging dir: files no run of a job wrote there are refused.)
        TestFiles.deleteRecursively(root.resolve("create-logs"));
        TestFiles.deleteRecursively(root.resolve("sigs_a2"));
        TestFiles.deleteRecursively(root.resolve("dups_a"));
        assertTrue(run("create", bucketsA));
        assertEquals(dupsOfA, TestFiles.hashes(root.resolve("dups_a")));
        assertEquals(BUCKETS, TestFiles.files(root.resolve("dups_a")).stream().mapToLong(this::size).map(s -> s / 16).sum());

        assertTrue(run("dedup", dedupB("index_folder: ROOT/idx2")));
        assertEquals(List.of("b3", "b4", "b5"), ids(root.resolve("out")));
    }

    private long size(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private String signatures(Path corpus, String output) {
        return """
                  - name: sig_OUT
                    tasks: 1
                    steps:
                      - read_jsonl: {path: CORPUS}
                      - minhash_signature: {output: ROOT/OUT}
                """.replace("CORPUS", corpus.toString()).replace("OUT", output);
    }

    private static String buildIndex(String sigs, String output, String name) {
        return """
                  - name: index
                    tasks: 14
                    workers: 2
                    steps:
                      - minhash_build_index: {input: ROOT/SIGS, output: ROOT/OUT, index_name: NAME}
                """.replace("SIGS", sigs).replace("OUT", output).replace("NAME", name);
    }

    /** B's four stages, the bucket stage with the given extra keys (a mapping's entries or a whole mapping). */
    private String dedupB(String bucketKeys) {
        String keys = bucketKeys.startsWith("{") ? bucketKeys.substring(1, bucketKeys.length() - 1) : bucketKeys;
        return signatures(corpusB, "sigs_b") + """
                  - name: buckets
                    tasks: 14
                    workers: 2
                    steps:
                      - minhash_buckets: {input: ROOT/sigs_b, output: ROOT/dups, KEYS}
                  - name: cluster
                    tasks: 1
                    steps:
                      - minhash_cluster: {input: ROOT/dups, output: ROOT/remove, cluster_metadata: true}
                  - name: filter
                    tasks: 1
                    steps:
                      - read_jsonl: {path: CORPUS}
                      - minhash_filter: {input: ROOT/remove, cluster_metadata: true, exclusion_output: ROOT/removed}
                      - write_jsonl: {path: ROOT/out}
                """.replace("KEYS", keys).replace("CORPUS", corpusB.toString());
    }

    private boolean run(String name, String stages) throws Exception {
        String yaml = ("logging_dir: ROOT/" + name + "-logs\nstages:\n" + stages).replace("ROOT", root.toString());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        boolean ok = DedupCorpus.runJob(root.resolve(name + ".yaml"), yaml, console);
        assertTrue(ok, console.toString());
        return ok;
    }

    private static long[][] records(byte[] bytes) {
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, bytes.length % BUCKET_RECORD);
        long[][] out = new long[bytes.length / BUCKET_RECORD][8];
        for (long[] r : out) {
            for (int k = 0; k < 8; k++) {
                r[k] = bb.getLong();
            }
        }
        return out;
    }

    private static List<String> ids(Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        TreeSet<String> ids = new TreeSet<>();
        for (String line : TestFiles.allLines(dir)) {
            ids.add(json.readTree(line).path("id").asText());
        }
        return List.copyOf(ids);
    }

    private static Map<String, Integer> clusterSizes(Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Integer> sizes = new TreeMap<>();
        for (String line : TestFiles.allLines(dir)) {
            var doc = json.readTree(line);
            sizes.put(doc.path("id").asText(), doc.path("metadata").path("minhash_cluster_size").asInt());
        }
        return sizes;
    }

    /** The pairs of all .dups files whose first document is the index (0xFFFFFFFF, 0xFFFFFFFF). */
    private static long indexPairs(Path dups) throws Exception {
        long n = 0;
        for (Path f : TestFiles.files(dups)) {
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
            while (bb.remaining() >= 16) {
                int rank1 = bb.getInt();
                int doc1 = bb.getInt();
                bb.getInt();
                bb.getInt();
                n += rank1 == -1 && doc1 == -1 ? 1 : 0;
            }
        }
        return n;
    }
}
