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

        // builds no script in the logging dir names are removed; a script of any stage keeps its build
        Path script = tmp.resolve("logs/clean/slurm/launch_script.slurm");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "exec java -cp '" + second + "' io.sluice.exec.WorkerMain\n");
        assertEquals(List.of(), WorkerCommand.removeUnusedBuilds(builds, tmp.resolve("logs")));
        assertEquals(List.of(second.getParent()), folders(builds));
        Files.writeString(jar, "build 1");
        assertEquals(first, Path.of(launcher.pinnedIn(builds, true).classPath().get(0)));
        Files.writeString(script, "exec java -cp '" + first + "' io.sluice.exec.WorkerMain\n");
        WorkerCommand.removeUnusedBuilds(builds, tmp.resolve("logs"));
        assertEquals(List.of(first.getParent()), folders(builds), "an older build a script on disk still names is kept");
    }

    private static List<Path> folders(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
