package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLockTest {
    @TempDir
    Path dir;

    /**
     * This process holds lock A; another holds B and waits for A. Taking B must wait until the other lets it go.
     * Before, a blocking lock was refused by the kernel as a deadlock (POSIX locks belong to processes, so it saw
     * this process waiting on itself), read as "no locks on this file system", and B was granted while the other
     * process held it: two local runs of a job ran one rank at once.
     */
    @Test
    void acquireWaitsForAProcessThatWaitsForAnotherLockOfOurs() throws Exception {
        Path a = dir.resolve("a.lock");
        Path b = dir.resolve("b.lock");
        Path released = dir.resolve("released");
        ProcessLock heldA = ProcessLock.acquire(a);
        Process other = new ProcessBuilder("python3", "-c", "import fcntl, sys\n"
                + "fb = open(sys.argv[2], 'a')\nfcntl.lockf(fb, fcntl.LOCK_EX)\nprint('holding', flush=True)\n"
                + "fa = open(sys.argv[1], 'a')\nfcntl.lockf(fa, fcntl.LOCK_EX)\n"
                + "open(sys.argv[3], 'w').close()\nfb.close()\n", a.toString(), b.toString(), released.toString()).start();
        try {
            assertEquals("holding", new BufferedReader(new InputStreamReader(other.getInputStream())).readLine());
            Thread.sleep(200); // the other process is now waiting for A
            Thread releaser = new Thread(() -> {
                try {
                    Thread.sleep(500);
                    heldA.close();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            releaser.start();
            try (ProcessLock heldB = ProcessLock.acquire(b)) {
                assertTrue(Files.exists(released), "B was granted while the other process held it");
                assertTrue(ProcessLock.holder(b).startsWith("pid " + ProcessHandle.current().pid() + " on "));
            }
            releaser.join();
        } finally {
            other.destroy();
            other.waitFor();
            heldA.close();
        }
    }
}
