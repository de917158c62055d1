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
}
