package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.doc.Document;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rank run again leaves exactly the files it writes now, whatever an earlier run of it wrote. */
class RankFilesTest {
    @TempDir
    Path out;
    @TempDir
    Path logs;

    /** One run of a rank, as the executor does it: the earlier run's files removed, then one writer per template. */
    private void run(String stage, int rank, long maxFileSize, Map<String, List<String>> langsByTemplate) throws IOException {
        RankFiles.removeEarlierRun(logs.resolve(stage), rank, f -> false);
        RankFiles files = RankFiles.of(logs.resolve(stage), rank);
        for (Map.Entry<String, List<String>> e : langsByTemplate.entrySet()) {
            try (JsonlWriter w = new JsonlWriter(out, e.getKey(), Compression.NONE, maxFileSize, rank, files, (d, k, f) -> { })) {
                for (String lang : e.getValue()) {
                    w.write(new Document("d-" + lang, "t", new LinkedHashMap<>(Map.of("lang", lang))));
                }
                w.commit();
            }
        }
    }

    private List<String> names() throws IOException {
        return TestFiles.files(out).stream().map(p -> out.relativize(p).toString().replace('\\', '/')).toList();
    }

    @Test
    void aRankRunAgainRemovesOnlyItsOwnFilesThatItNoLongerWrites() throws IOException {
        run("s", 0, 0, Map.of("${lang}/x-${rank}.jsonl", List.of("en", "fr")));
        run("s", 1, 0, Map.of("${lang}/x-${rank}.jsonl", List.of("en")));
        run("s", 0, 0, Map.of("${lang}/x-${rank}.jsonl", List.of("fr")));
        // rank 0's second run wrote fr only: its en file is gone, rank 1's stays
        assertEquals(List.of("en/x-00001.jsonl", "fr/x-00000.jsonl"), names());
    }

    /** The MinHash signatures' scratch files of a killed rank go with its files (they can be gigabytes). */
    @Test
    void aKilledRanksScratchFilesBesideItsFilesAreRemoved() throws IOException {
        Path bucket = Files.createDirectories(out.resolve("bucket_000"));
        RankFiles.of(logs.resolve("sigs"), 2).willWriteAll(List.of(bucket.resolve("00002.minhash.sig")));
        for (String n : List.of("00002.minhash.sig.unsorted.tmp", "00002.minhash.sig.run0.tmp", "00002.minhash.sig.tmp",
                "00012.minhash.sig.unsorted.tmp", "00003.minhash.sig", "minhash_keys.json.123-abc.tmp",
                "00002.minhash.sig.gz.tmp")) {
            Files.writeString(bucket.resolve(n), "x");
        }
        RankFiles.removeRanksFrom(logs.resolve("sigs"), 2, f -> false); // the job now has 2 ranks
        // another writer's temporary file extending the name is not the rank's
        assertEquals(List.of("bucket_000/00002.minhash.sig.gz.tmp", "bucket_000/00003.minhash.sig",
                "bucket_000/00012.minhash.sig.unsorted.tmp", "bucket_000/minhash_keys.json.123-abc.tmp"), names());
    }

    @Test
    void filesOfAnotherStageOrOutputInTheSameFolderAreNeverRemoved() throws IOException {
        // two stages (or jobs) filling the same tree by metadata
        run("web", 0, 0, Map.of("${lang}/${rank}.jsonl", List.of("web")));
        run("books", 0, 0, Map.of("${lang}/${rank}.jsonl", List.of("books")));
        // two outputs of one rank
        run("s", 0, 0, Map.of("Aa-${rank}.jsonl", List.of("x"), "BB-${rank}.jsonl", List.of("x")));
        run("s", 0, 0, Map.of("Aa-${rank}.jsonl", List.of("x"), "BB-${rank}.jsonl", List.of("x")));
        assertEquals(List.of("Aa-00000.jsonl", "BB-00000.jsonl", "books/00000.jsonl", "web/00000.jsonl"), names());
    }

    @Test
    void turningRollingOnRemovesTheUnrolledFileOfTheRunBefore() throws IOException {
        run("s", 0, 0, Map.of("${rank}.jsonl", List.of("a", "b")));
        run("s", 0, 1, Map.of("${rank}.jsonl", List.of("a", "b")));
        // before, 00000.jsonl stayed beside the pieces and the next stage read its documents twice
        assertEquals(List.of("000_00000.jsonl", "001_00000.jsonl"), names());
    }

    @Test
    void aRunKilledAfterRollingLeavesNothingForTheNextRunOfOtherSettings() throws IOException {
        // killed while writing its third piece: two pieces under final names, the third a temporary file
        RankFiles files = RankFiles.of(logs.resolve("s"), 2);
        JsonlWriter w = new JsonlWriter(out, "${rank}.jsonl", Compression.NONE, 1, 2, files, (d, k, f) -> { });
        for (String id : List.of("a", "b")) {
            w.write(new Document(id, "t", new LinkedHashMap<>()));
        }
        TestFiles.write(out.resolve("002_00002.jsonl.tmp"), "{\"text\": \"half");
        files.willWrite(out.resolve("002_00002.jsonl"));
        assertEquals(List.of("000_00002.jsonl", "001_00002.jsonl", "002_00002.jsonl.tmp"), names());
        // run again with rolling off (and its stage folder deleted, as the refusal advises: the journal is beside it)
        run("s", 2, 0, Map.of("${rank}.jsonl", List.of("a", "b")));
        assertEquals(List.of("00002.jsonl"), names());
    }

    @Test
    void whatTheStageNowReadsIsNotRemoved() throws IOException {
        run("s", 0, 0, Map.of("${rank}.jsonl", List.of("a")));
        assertEquals(0, RankFiles.removeEarlierRun(logs.resolve("s"), 0, f -> f.startsWith(out)));
        assertEquals(List.of("00000.jsonl"), names());
    }

    @Test
    void ranksTheStageNoLongerHasAreRemovedWithTheirJournals() throws IOException {
        for (int rank = 0; rank < 3; rank++) {
            run("s", rank, 0, Map.of("${rank}.jsonl", List.of("a")));
        }
        assertEquals(1, RankFiles.removeRanksFrom(logs.resolve("s"), 2, f -> false));
        assertEquals(List.of("00000.jsonl", "00001.jsonl"), names());
        assertEquals(List.of("00000.files", "00001.files"), TestFiles.files(logs.resolve(".written/s")).stream()
                .map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void aJournalLineAKillCutShortIsIgnored() throws IOException {
        run("s", 0, 0, Map.of("${rank}.jsonl", List.of("a")));
        Path journal = logs.resolve(".written/s/00000.files");
        Files.writeString(journal, out.toString(), java.nio.file.StandardOpenOption.APPEND); // the folder, no newline
        run("s", 0, 0, Map.of("${rank}.jsonl", List.of("a")));
        assertEquals(List.of("00000.jsonl"), names());
    }
}
