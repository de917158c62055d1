package io.sluice.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/launcher's choice of JVM flags, seen through a stand-in java that prints the command line it gets:
 * the Vector API module (and with it the JVM's "WARNING: Using incubator modules") only for a job run.
 */
class LauncherScriptTest {
    @TempDir
    Path dir;

    private String javaCommandLine(String... args) throws IOException, InterruptedException {
        Path java = dir.resolve("jdk/bin/java");
        Files.createDirectories(java.getParent());
        // answers bin/lib/java.sh's version probe as a JDK 25, and otherwise prints its arguments
        Files.writeString(java, """
                #!/usr/bin/env bash
                if [ "${1:-}" = -XshowSettings:properties ]; then echo "    java.specification.version = 25" >&2; exit 0; fi
                echo "$@"
                """);
        return runLauncher(args);
    }

    private String runLauncher(String... args) throws IOException, InterruptedException {
        return runLauncher(true, args);
    }

    private String runLauncher(boolean mustSucceed, String... args) throws IOException, InterruptedException {
        Path java = dir.resolve("jdk/bin/java");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path launcher = Path.of(System.getProperty("sluice.root"), "bin/launcher");
        ProcessBuilder pb = new ProcessBuilder("bash", launcher.toString());
        pb.command().addAll(List.of(args));
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("SLUICE_NO_BUILD", "1");
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        if (mustSucceed) {
            assertEquals(0, exit, out);
        }
        return out;
    }

    @Test
    void onlyAJobRunGetsTheIncubatorModule() throws Exception {
        assertTrue(javaCommandLine("run", "job.yaml").contains("--add-modules jdk.incubator.vector"));
        // before, run --help and run --version started the JVM with the module and printed its warning
        for (String help : new String[] {"--help", "-h", "--version", "-V"}) {
            String line = javaCommandLine("run", help);
            assertFalse(line.contains("jdk.incubator.vector"), help + ": " + line);
            assertFalse(line.contains("AutoCreateSharedArchive"), help + " records no class archive: " + line);
        }
        assertFalse(javaCommandLine("validate", "job.yaml").contains("jdk.incubator.vector"));
    }

    /** The JDK's version is read from its release file, without starting it (that took 0.15 s of every command). */
    @Test
    void readsTheVersionFromTheReleaseFile() throws Exception {
        Path java = dir.resolve("jdk/bin/java");
        Files.createDirectories(java.getParent());
        // no answer to the version probe: only the release file can tell this JDK is new enough
        Files.writeString(java, """
                #!/usr/bin/env bash
                if [ "${1:-}" = -XshowSettings:properties ]; then exit 1; fi
                echo "stand-in: $@"
                """);
        Files.writeString(dir.resolve("jdk/release"), "IMPLEMENTOR=\"Stand-in\"\nJAVA_VERSION=\"25.0.1\"\nOS_ARCH=\"x86_64\"\n"
                .replace("x86_64", System.getProperty("os.arch").equals("amd64") ? "x86_64" : System.getProperty("os.arch")));
        String out = runLauncher("validate", "job.yaml");
        assertTrue(out.startsWith("stand-in: "), out);
        assertTrue(out.contains("validate job.yaml"), out);
        // a JDK built for another CPU: its release file is not trusted, and it cannot say its version, so another
        // JDK runs the command (before, it was chosen and every command failed with "Exec format error")
        Files.writeString(dir.resolve("jdk/release"), "IMPLEMENTOR=\"Stand-in\"\nJAVA_VERSION=\"25.0.1\"\nOS_ARCH=\"s390x\"\n");
        out = runLauncher(false, "--version"); // run by the JDK chosen instead, whose jar a test build may not have made yet
        assertTrue(out.startsWith("sluice: JAVA_HOME (" + dir.resolve("jdk") + ") is not a JDK 21 or newer; using "), out);
    }
}
