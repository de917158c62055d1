package io.sluice.launcher.slurm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A submitted job keeps the build it was submitted with, whatever happens to the launcher's jar afterwards. */
class WorkerCommandTest {
    @TempDir
    Path tmp;

    @Test
    void jarsAreCopiedByContentAndFoldersKept() throws IOException {
        Path jar = tmp.resolve("target/sluice.jar");
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "build 1");
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        Path builds = tmp.resolve("logs/builds");
        WorkerCommand launcher = new WorkerCommand("java", List.of(jar.toString(), classes.toString()), WorkerCommand.WORKER_MAIN);

        WorkerCommand named = launcher.pinnedIn(builds, false);
        Path first = Path.of(named.classPath().get(0));
        assertEquals(builds, first.getParent().getParent());
        assertEquals("sluice.jar", first.getFileName().toString());
        assertEquals(classes.toString(), named.classPath().get(1), "a class folder stays where it is");
        assertFalse(Files.exists(builds), "a dry run copies nothing");

        assertEquals(named, launcher.pinnedIn(builds, true), "the copy is where the dry run said");
        assertEquals("build 1", Files.readString(first));

        // rebuilt after the submit: the next submit pins the new build, the first copy is untouched
        Files.writeString(jar, "build 2");
        Path second = Path.of(launcher.pinnedIn(builds, true).classPath().get(0));
        assertNotEquals(first, second);
        assertEquals("build 1", Files.readString(first));
        assertEquals("build 2", Files.readString(second));
        assertEquals(second, Path.of(launcher.pinnedIn(builds, true).classPath().get(0)), "the same build is reused");
        assertEquals(2, folders(builds).size());
        assertTrue(folders(builds).stream().noneMatch(f -> f.getFileName().toString().endsWith(".tmp")));

        launcher.pinnedIn(builds, true).removeOtherBuilds(builds);
        assertEquals(List.of(second.getParent()), folders(builds));
    }

    private static List<Path> folders(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
