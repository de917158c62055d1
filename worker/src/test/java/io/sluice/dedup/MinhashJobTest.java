package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.io.TestFiles;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The four steps as four stages of a job file, run by the local executor. */
class MinhashJobTest {
    @TempDir
    Path root;

    @Test
    void fourStageJobRemovesDatatrovesDuplicates() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14)));
        // datatrove keeps 96 of the 100 documents and removes 4
        assertEquals(96, TestFiles.allLines(root.resolve("out")).size());
        assertEquals(4, TestFiles.allLines(root.resolve("removed")).size());
        assertEquals(14, TestFiles.files(root.resolve("dups")).size());
    }

    /** The refusal of a job that must not start. */
    private io.sluice.job.JobException refusal(String yaml) {
        return org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class, () -> run(root, yaml));
    }

    /** The four stages over the plagiarism corpus with {@code buckets} buckets, each its own rank; removed documents kept aside. */
    private static String fourStages(Path root, Path corpus, int buckets) {
        return fourStages(root, corpus, buckets, buckets);
    }

    /** The four stages with {@code bucketTasks} ranks for the buckets ({@code bucketTasks / buckets} per bucket). */
    private static String fourStages(Path root, Path corpus, int buckets, int bucketTasks) {
        return """
                logging_dir: ROOT/logs
                stages:
                  - name: signatures
                    tasks: 1
                    steps:
                      - read_jsonl: {path: CORPUS}
                      - minhash_signature: {output: ROOT/sigs, num_buckets: B}
                  - name: buckets
                    tasks: TB
                    workers: 2
                    steps:
                      - minhash_buckets: {input: ROOT/sigs, output: ROOT/dups, num_buckets: B}
                  - name: cluster
                    tasks: 1
                    steps:
                      - minhash_cluster: {input: ROOT/dups, output: ROOT/remove, num_buckets: B}
                  - name: filter
                    tasks: 1
                    steps:
                      - read_jsonl: {path: CORPUS}
                      - minhash_filter: {input: ROOT/remove, exclusion_output: ROOT/removed}
                      - write_jsonl: {path: ROOT/out}
                """.replace("ROOT", root.toString()).replace("CORPUS", corpus.toString())
                .replace("TB", String.valueOf(bucketTasks)).replace("B", String.valueOf(buckets));
    }

    private static boolean run(Path root, String yaml) throws Exception {
        return DedupCorpus.runJob(root.resolve("job.yaml"), yaml, new ByteArrayOutputStream());
    }

    @Test
    void fewerBucketsAfterTheStageFoldersWereDeletedLeaveNoBucketOfTheRunBefore(@TempDir Path fresh) throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14)));
        assertEquals(14, TestFiles.files(root.resolve("dups")).size());
        // as the refusal of the changed stages advises: delete their folders in the logging dir, run again.
        // Before, the 7 .dups files of buckets 7-13 stayed, the cluster stage read all 14 and removed more.
        for (String stage : new String[] {"signatures", "buckets", "cluster", "filter"}) {
            TestFiles.deleteRecursively(root.resolve("logs").resolve(stage));
        }
        assertTrue(run(root, fourStages(root, corpus, 7)));
        assertTrue(run(fresh, fourStages(fresh, corpus, 7)));
        assertEquals(TestFiles.hashes(fresh.resolve("dups")), TestFiles.hashes(root.resolve("dups")));
        assertEquals(TestFiles.hashes(fresh.resolve("sigs")), TestFiles.hashes(root.resolve("sigs")));
        assertEquals(TestFiles.allLines(fresh.resolve("out")), TestFiles.allLines(root.resolve("out")));
    }

    /**
     * Fewer bucket workers: the refusal advises deleting the changed stages' folders, and their earlier files
     * go before any rank runs. Before, each rank removed its own earlier files as it started, and new rank 3
     * removed 00001_00.dups, which new rank 1 (bucket 1) had just written under the name old rank 3 had used.
     */
    @Test
    void fewerBucketWorkersAfterTheStageFoldersWereDeletedGiveAFreshRunsFiles(@TempDir Path fresh) throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14, 42)));
        assertEquals(42, TestFiles.files(root.resolve("dups")).size());
        assertTrue(refusal(fourStages(root, corpus, 14, 14)).getMessage().contains("buckets"));
        for (String stage : new String[] {"buckets", "cluster", "filter"}) {
            TestFiles.deleteRecursively(root.resolve("logs").resolve(stage));
        }
        assertTrue(run(root, fourStages(root, corpus, 14, 14)));
        assertTrue(run(fresh, fourStages(fresh, corpus, 14, 14)));
        assertEquals(TestFiles.hashes(fresh.resolve("dups")), TestFiles.hashes(root.resolve("dups")));
        assertEquals(TestFiles.allLines(fresh.resolve("out")), TestFiles.allLines(root.resolve("out")));
    }

    /**
     * The same change with none of the stage's ranks complete (a run killed, or its markers deleted): nothing
     * to refuse, and the stage's earlier files still go before any rank runs. Before, each rank removed the files
     * its old journal named, new bucket files among them, and the cluster stage found 10 .dups files for 14 buckets.
     */
    @Test
    void fewerBucketWorkersWithNoRankCompleteGiveAFreshRunsFiles(@TempDir Path fresh) throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14, 42)));
        for (String stage : new String[] {"buckets", "cluster", "filter"}) {
            TestFiles.deleteRecursively(root.resolve("logs").resolve(stage).resolve("completions"));
        }
        assertTrue(run(root, fourStages(root, corpus, 14, 14)));
        assertTrue(run(fresh, fourStages(fresh, corpus, 14, 14)));
        assertEquals(TestFiles.hashes(fresh.resolve("dups")), TestFiles.hashes(root.resolve("dups")));
        assertEquals(TestFiles.allLines(fresh.resolve("out")), TestFiles.allLines(root.resolve("out")));

        // or every rank run again (skip_completed: false): the markers of the 42 ranks go with their files
        assertTrue(run(root, "skip_completed: false\n" + fourStages(root, corpus, 14, 42)));
        assertTrue(run(root, "skip_completed: false\n" + fourStages(root, corpus, 14, 14)));
        assertEquals(TestFiles.hashes(fresh.resolve("dups")), TestFiles.hashes(root.resolve("dups")));
        assertEquals(14, io.sluice.io.Completions.completedRanks(root.resolve("logs/buckets")).cardinality());
    }

    /**
     * The buckets stage is made from the signatures stage's files, which it lists rather than reads as documents:
     * signatures made again (skip_completed: false) hold it to them. Before, it was skipped as complete, its pairs
     * made from the old signatures.
     */
    @Test
    void stagesListingMinhashFoldersAreHeldToTheRunThatFilledThem() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        String yaml = fourStages(root, corpus, 14);
        assertTrue(run(root, yaml));
        Path jobFile = root.resolve("again.yaml");
        java.nio.file.Files.writeString(jobFile, "skip_completed: false\n" + yaml);
        assertTrue(new io.sluice.exec.LocalExecutor(io.sluice.job.JobFile.load(jobFile),
                new java.io.PrintStream(new ByteArrayOutputStream(), true)).run("signatures"));
        io.sluice.job.JobException e = refusal(yaml);
        assertTrue(e.getMessage().contains("'buckets' was made from an earlier run of 'signatures'"), e.getMessage());
    }

    /**
     * MinHash folders holding files of another job (sharing the work folders, or whose logging dir was deleted)
     * are refused: the next stage reads every file of its kind there. Before, a second job over part of the
     * corpus read the first one's other signature files, and removed documents by them, without a word.
     */
    @Test
    void minhashFilesNoRunOfTheJobWroteAreRefused() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14)));
        String other = fourStages(root, corpus, 14).replace("logging_dir: " + root + "/logs", "logging_dir: " + root + "/logs2");
        io.sluice.job.JobException e = refusal(other);
        assertTrue(e.getMessage().contains("stages[0] (signatures).steps[1] (minhash_signature): " + root.resolve("sigs")
                + " holds 14 file(s) that no run of this job wrote (bucket_000/00000.minhash.sig, bucket_001/00000.minhash.sig,"
                + " bucket_002/00000.minhash.sig, ...), from another job or a logging dir since deleted"), e.getMessage());
        // the job's own files, noted by its ranks, are not refused: a run again of the first job skips every rank
        assertTrue(run(root, fourStages(root, corpus, 14)));
        // a .remove file left where the cluster stage writes, with nothing of this job's to replace it
        assertTrue(Files.notExists(root.resolve("logs2")), "refused before anything was written");
        for (String folder : new String[] {"sigs", "dups"}) {
            TestFiles.deleteRecursively(root.resolve(folder));
        }
        Files.write(root.resolve("remove/000001.remove"), new byte[4]);
        e = refusal(other);
        assertTrue(e.getMessage().contains("stages[2] (cluster).steps[0] (minhash_cluster): " + root.resolve("remove")), e.getMessage());
    }

    @Test
    void aFilterStageWithOtherTasksThanItsSignatureStageIsRefused() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        String yaml = fourStages(root, corpus, 14).replace("  - name: filter\n    tasks: 1", "  - name: filter\n    tasks: 2");
        // before, validate passed and filter rank 0 removed documents by the numbers of another split
        io.sluice.job.JobException e = refusal(yaml);
        assertTrue(e.getMessage().contains("stages[3] (filter).steps[1] (minhash_filter): stage 'filter' has 2 tasks, but the"
                + " signatures it filters by were made by stage 'signatures' with 1"), e.getMessage());
    }

    @Test
    void stepsReadingSignaturesOrPairsWithOtherParametersOrAMissingIndexAreRefusedBeforeTheRun() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        // before, validate passed, the signature stage ran, and every bucket rank failed ("record size 68")
        String yaml = fourStages(root, corpus, 14).replace("minhash_signature: {output: " + root + "/sigs, num_buckets: 14}",
                "minhash_signature: {output: " + root + "/sigs, num_buckets: 14, precision: 32}");
        io.sluice.job.JobException e = refusal(yaml);
        assertTrue(e.getMessage().contains("stages[1] (buckets).steps[0] (minhash_buckets): reads " + root.resolve("sigs")
                + ", made by stages[0] (signatures).steps[1] (minhash_signature) at line 7 with num_buckets 14,"
                + " hashes_per_bucket 8, precision 32, but has num_buckets 14, hashes_per_bucket 8, precision 64"), e.getMessage());
        assertTrue(!java.nio.file.Files.exists(root.resolve("sigs")), "nothing ran");

        String cluster = fourStages(root, corpus, 14).replace("minhash_cluster: {input: " + root + "/dups, output: " + root
                + "/remove, num_buckets: 14}", "minhash_cluster: {input: " + root + "/dups, output: " + root + "/remove, num_buckets: 7}");
        e = refusal(cluster);
        assertTrue(e.getMessage().contains("(minhash_cluster): reads " + root.resolve("dups")), e.getMessage());

        // before, accepted and ignored
        e = refusal(fourStages(root, corpus, 14).replace("output: " + root + "/dups, num_buckets: 14}",
                "output: " + root + "/dups, num_buckets: 14, only_dedup_in_index: false}"));
        assertTrue(e.getMessage().contains("(minhash_buckets): 'only_dedup_in_index' says how to deduplicate against an index:"
                + " it needs index_folder"), e.getMessage());

        String index = fourStages(root, corpus, 14).replace("output: " + root + "/dups, num_buckets: 14}",
                "output: " + root + "/dups, num_buckets: 14, index_folder: " + root + "/no-index}");
        e = refusal(index);
        assertTrue(e.getMessage().contains("(minhash_buckets): index_folder " + root.resolve("no-index") + " does not exist"
                + " and no earlier step of the job writes it"), e.getMessage());
    }

    /**
     * A job reading another job's MinHash folders: held to the keys its signatures record, and refused a folder
     * that is not there. Before, buckets with num_buckets 10 read 10 of 14 bucket folders and the job removed 3
     * documents of 4, and minhash_filter given a misspelled folder kept every document; both exited 0.
     */
    @Test
    void aJobReadingAnotherJobsFoldersIsHeldToThem() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        assertTrue(run(root, fourStages(root, corpus, 14)));
        Path other = root.resolve("other");
        String buckets = """
                logging_dir: OTHER/logs
                stages:
                  - name: buckets
                    tasks: 10
                    steps:
                      - minhash_buckets: {input: ROOT/sigs, output: OTHER/dups, num_buckets: 10}
                """.replace("ROOT", root.toString()).replace("OTHER", other.toString());
        io.sluice.job.JobException e = refusal(buckets);
        assertTrue(e.getMessage().contains("stages[0] (buckets).steps[0] (minhash_buckets): the signatures in " + root.resolve("sigs")
                + " were made with num_buckets 14, hashes_per_bucket 8, precision 64 (" + root.resolve("sigs/minhash_keys.json")
                + "), but this step has num_buckets 10, hashes_per_bucket 8, precision 64; give it the signatures'"), e.getMessage());
        // the bucket ranks say the same at run time (the folder could gain its keys file after the job's checks)
        org.junit.jupiter.api.Assertions.assertEquals("the signatures in " + root.resolve("sigs") + " were made with num_buckets 14,"
                + " hashes_per_bucket 8, precision 64 (" + root.resolve("sigs/minhash_keys.json") + "), but this step has"
                + " num_buckets 10, hashes_per_bucket 8, precision 64; give it the signatures' num_buckets, hashes_per_bucket"
                + " and precision", MinhashKeysFile.layoutMismatch(root.resolve("sigs"), new MinhashConfig(5, 10, 8, 1, 64,
                "xxhash", io.sluice.text.TextNormConfig.DEFAULT)));

        String filter = """
                logging_dir: OTHER/logs
                stages:
                  - name: filter
                    tasks: 1
                    steps:
                      - read_jsonl: {path: CORPUS}
                      - minhash_filter: {input: ROOT/remov}
                      - write_jsonl: {path: OTHER/out}
                """.replace("ROOT", root.toString()).replace("OTHER", other.toString()).replace("CORPUS", corpus.toString());
        // a folder that is not there is noted, not refused: datatrove's cluster stage makes none when it finds no
        // duplicates (before, a misspelled path kept every document without a word)
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        assertTrue(DedupCorpus.runJob(root.resolve("job.yaml"), filter, console));
        assertTrue(console.toString().contains("[filter] note: minhash_filter's input folder " + root.resolve("remov") + " does"
                + " not exist, so it removes no document"), console.toString());
        assertEquals(100, TestFiles.allLines(other.resolve("out")).size());
        TestFiles.deleteRecursively(other);
        assertTrue(run(root, filter.replace("/remov}", "/remove}")));
        assertEquals(96, TestFiles.allLines(other.resolve("out")).size());

        // a .dups folder with no .dups file: minhash_buckets has not run (before: nothing removed, exit 0)
        Files.createDirectories(other.resolve("empty-dups"));
        String cluster = """
                logging_dir: OTHER/logs2
                stages:
                  - name: cluster
                    tasks: 1
                    steps:
                      - minhash_cluster: {input: OTHER/empty-dups, output: OTHER/remove}
                """.replace("OTHER", other.toString());
        org.junit.jupiter.api.Assertions.assertFalse(run(root, cluster));
        assertTrue(TestFiles.allLines(other.resolve("logs2/cluster/logs")).stream().anyMatch(l -> l.contains(
                "minhash_cluster: no .dups files in " + other.resolve("empty-dups") + "; did minhash_buckets run and finish?")));
    }

    /** With no duplicates the cluster stage still makes its folder, so the filter stage finds it and says nothing. */
    @Test
    void aRunWithoutDuplicatesKeepsEveryDocumentWithoutANote() throws Exception {
        Path corpus = root.resolve("distinct.jsonl");
        Files.writeString(corpus, """
                {"id": "a", "text": "the quick brown fox jumps over the lazy dog near the river bank today"}
                {"id": "b", "text": "an entirely different sentence about compilers, caches and vector units in java"}
                {"id": "c", "text": "statistics of crawled text are merged exactly with the parallel variance formula"}
                """);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        assertTrue(DedupCorpus.runJob(root.resolve("job.yaml"), fourStages(root, corpus, 14), console));
        assertTrue(Files.isDirectory(root.resolve("remove")), "made, though empty: minhash_filter can tell the stage ran");
        assertEquals(3, TestFiles.allLines(root.resolve("out")).size());
        assertTrue(!console.toString().contains("does not exist"), console.toString());
    }

    @Test
    void aFilterStageReadingOtherDocumentsThanItsSignatureStageIsRefused() throws Exception {
        Path corpus = DedupCorpus.shared().resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        String yaml = fourStages(root, corpus, 14).replace("      - read_jsonl: {path: " + corpus + "}\n      - minhash_filter",
                "      - read_jsonl: {path: " + corpus + ", limit: 50}\n      - minhash_filter");
        // before, validate passed; with another limit, glob or folder, rank r holds other documents
        io.sluice.job.JobException e = refusal(yaml);
        assertTrue(e.getMessage().contains("stages[3] (filter).steps[1] (minhash_filter): stage 'filter' reads {path="
                + corpus + ", limit=50}, but the signatures it filters by were made by stage 'signatures' reading {path="
                + corpus + "}"), e.getMessage());
        // the same folder spelled another way is the same reader
        String sameFolder = fourStages(root, corpus, 14).replace("      - read_jsonl: {path: " + corpus + "}\n      - minhash_filter",
                "      - read_jsonl: {path: " + corpus.getParent() + "/../dedup/" + corpus.getFileName() + "}\n      - minhash_filter");
        assertTrue(!sameFolder.equals(fourStages(root, corpus, 14)));
        assertTrue(run(root, sameFolder));
    }

    @Test
    void minhashBlockGivesDatatrovesClustersWithMetadata() throws Exception {
        Path shared = DedupCorpus.shared();
        Path corpus = shared.resolve("data/dedup/clough_stevenson_plagiarism.jsonl.zst");
        String yaml = """
                logging_dir: ROOT/logs
                tasks: 1
                stages:
                  - name: dedup
                    minhash:
                      input: CORPUS
                      output: ROOT/out
                      work_dir: ROOT/work
                      exclusion_output: ROOT/removed
                      cluster_metadata: true
                """.replace("ROOT", root.toString()).replace("CORPUS", corpus.toString());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        assertTrue(DedupCorpus.runJob(root.resolve("job.yaml"), yaml, console), console.toString());

        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.Map<String, String> ours = new java.util.TreeMap<>();
        for (String dir : java.util.List.of("out", "removed")) {
            for (String line : TestFiles.allLines(root.resolve(dir))) {
                var doc = json.readTree(line);
                var md = doc.path("metadata");
                ours.put(doc.path("id").asText(), dir.equals("out") + " " + md.path("minhash_cluster_id").asInt()
                        + " " + md.path("minhash_cluster_size").asInt());
            }
        }
        java.util.Map<String, String> golden = new java.util.TreeMap<>();
        for (String line : TestFiles.lines(shared.resolve("data/golden/minhash/clough_stevenson_plagiarism/clusters.jsonl.zst"))) {
            var g = json.readTree(line);
            golden.put(g.path("id").asText(), g.path("kept").asBoolean() + " " + g.path("minhash_cluster_id").asInt()
                    + " " + g.path("minhash_cluster_size").asInt());
        }
        assertEquals(100, golden.size());
        assertEquals(golden, ours);
    }
}
