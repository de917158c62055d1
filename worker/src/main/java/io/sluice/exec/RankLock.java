package io.sluice.exec;

import io.sluice.io.ProcessLock;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The lock of one rank of a stage, {@code <stage dir>/locks/<rank:05d>.lock}, held while the rank runs: two
 * runs of the same job on one logging dir (two submits racing, or a local run beside a Slurm array) would
 * otherwise run a rank twice at once, one truncating the other's temporary files, and mark complete an
 * output left empty. The OS releases the lock when the process dies, so a killed rank never blocks its
 * rerun on the same machine; a network file system may keep a crashed node's lock for a while (an NFSv4
 * lease, about 90 s; NFSv3 until the node is back), and {@code SLUICE_NO_RANK_LOCK=1} runs ranks unlocked
 * for such a case.
 */
public final class RankLock {
    private RankLock() {
    }

    /** The rank's lock, or null when another process holds it; {@link #holder} says who. */
    static ProcessLock tryAcquire(Path stageDir, int rank) throws IOException {
        if ("1".equals(System.getenv("SLUICE_NO_RANK_LOCK"))) {
            return ProcessLock.none();
        }
        return ProcessLock.tryAcquire(file(stageDir, rank));
    }

    /**
     * The rank's lock, waiting while another process on this host holds it: a second local run of the job
     * (the OS releases the lock when that process ends, however it ends). Null when a process on another host
     * holds it, whose lock a network file system may keep after a crash, or this process. {@code waiting} is told
     * the holder before the wait.
     */
    static ProcessLock acquireUnlessHeldElsewhere(Path stageDir, int rank, java.util.function.Consumer<String> waiting)
            throws IOException {
        Path file = file(stageDir, rank);
        for (int attempt = 0; ; attempt++) {
            ProcessLock lock = tryAcquire(stageDir, rank);
            if (lock != null) {
                return lock;
            }
            String holder = ProcessLock.holder(file);
            if (ProcessLock.isNamed(holder) || attempt == NAME_WAITS) {
                if (!ProcessLock.isAnotherOnThisHost(holder)) {
                    return null;
                }
                waiting.accept(holder); // before, a run waiting here said nothing
                return ProcessLock.acquire(file);
            }
            try {
                Thread.sleep(20); // locked, but its holder has not yet written its name
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    private static final int NAME_WAITS = 50;

    /** Who holds the lock of a rank ("pid 123 on node7"). */
    static String holder(Path stageDir, int rank) {
        return ProcessLock.holder(file(stageDir, rank));
    }

    /** The lock file of a rank, {@code <stage dir>/locks/NNNNN.lock} (also read by the launcher's status). */
    public static Path file(Path stageDir, int rank) {
        return stageDir.resolve("locks").resolve(String.format("%05d.lock", rank));
    }
}
