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
}
