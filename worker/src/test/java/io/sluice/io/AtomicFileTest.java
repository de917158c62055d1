package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    @Test
    void manyFilesWrittenTogetherAreAllInPlaceAndAFailureLeavesNoTemporaryFile() throws Exception {
        java.util.Map<Path, byte[]> files = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 300; i++) { // more than one batch of open files
            files.put(dir.resolve("g" + i % 7).resolve(i + ".json"), ("{\"n\": " + i + "}").getBytes());
        }
        AtomicFile.writeAll(contents(files));
        for (java.util.Map.Entry<Path, byte[]> e : files.entrySet()) {
            assertEquals(new String(e.getValue()), Files.readString(e.getKey()));
        }

        Files.createDirectories(dir.resolve("taken/1.json")); // a folder where a file should go
        java.util.Map<Path, byte[]> failing = new java.util.LinkedHashMap<>();
        failing.put(dir.resolve("taken/0.json"), new byte[] {1});
        failing.put(dir.resolve("taken/1.json"), new byte[] {2});
        failing.put(dir.resolve("taken/2.json"), new byte[] {3});
        org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> AtomicFile.writeAll(contents(failing)));
        try (var all = Files.walk(dir)) {
            assertEquals(List.of(), all.filter(p -> p.toString().endsWith(AtomicFile.TMP_SUFFIX)).toList());
        }
        assertTrue(!Files.exists(dir.resolve("taken/2.json")), "a file after the failed one is not written half");
    }

    private static java.util.Map<Path, AtomicFile.Content> contents(java.util.Map<Path, byte[]> files) {
        java.util.Map<Path, AtomicFile.Content> out = new java.util.LinkedHashMap<>();
        files.forEach((path, bytes) -> out.put(path, () -> bytes));
        return out;
    }

    @Test
    void concurrentWritersOfOneFileNeverFailAndLeaveAWholeVersion() throws Exception {
        Path target = dir.resolve("stats.json");
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                byte[] content = ("writer " + t + " ").repeat(20_000).getBytes();
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        AtomicFile.writeShared(target, content);
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(); // a failed rename would surface here
            }
        }
        String s = Files.readString(target);
        assertEquals(20_000 * 9, s.length());
        assertTrue(s.equals(s.substring(0, 9).repeat(20_000)), "one writer's whole content");
        try (var files = Files.list(dir)) {
            assertEquals(List.of(target), files.toList(), "no temporary file is left behind");
        }
    }

    /** A single writer's temporary name is fixed: what a killed attempt left is overwritten, not kept. */
    @Test
    void aWriteAfterAKilledOneLeavesOnlyTheFile() throws Exception {
        Path target = dir.resolve("00001");
        Files.writeString(dir.resolve("00001.tmp"), "half-written by a killed attempt");
        AtomicFile.write(target, "done".getBytes());
        assertEquals("done", Files.readString(target));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(target), files.toList(), "no temporary file is left behind");
        }
    }

    /** A shared file's temporary names are unique: those a killed writer left go once a minute old. */
    @Test
    void aSharedWriteRemovesTemporariesAKilledWriterLeft() throws Exception {
        Path target = dir.resolve("stats.json");
        Path old = dir.resolve("stats.json.4242-3.tmp");
        Path recent = dir.resolve("stats.json.4243-9f.tmp");
        Files.writeString(old, "{\"half");
        Files.writeString(recent, "{\"being written");
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        AtomicFile.writeShared(target, "{}".getBytes());
        try (var files = Files.list(dir)) {
            // the recent one may belong to a writer still at work on another node
            assertEquals(List.of(target, recent), files.sorted().toList());
        }
    }

    /** shard_plan.json and settings are written once: a killed writer's temporary file stayed for good. */
    @Test
    void theTemporariesOfFilesWrittenOnceAreRemovedWhenTheStageRunsAgain() throws Exception {
        Path old = dir.resolve("shard_plan.json.4242-3a.tmp");
        Path recent = dir.resolve("settings.4243-9f.tmp");
        Path own = dir.resolve("00001.jsonl.tmp"); // a rank's own temporary name: its rank removes it
        for (Path p : List.of(old, recent, own)) {
            Files.writeString(p, "half");
            if (p != recent) {
                Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
            }
        }
        // the run id's, made by a hard link from such a name (it was run_id.<uuid>.tmp, which nothing removed)
        Path runId = AtomicFile.sharedTemporaryOf(dir.resolve("run_id"));
        Files.writeString(runId, "half");
        Files.setLastModifiedTime(runId, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        AtomicFile.removeAbandonedSharedTemporaries(dir);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(own, recent), files.sorted().toList());
        }
    }
}
