package io.sluice.exec;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on one rank of a stage, {@code <stage dir>/locks/<rank:05d>.lock}, held while the rank
 * runs: two runs of the same job on one logging dir (two submits racing, or a local run beside a Slurm
 * array) would otherwise run a rank twice at once, one truncating the other's temporary files, and mark
 * complete an output left empty. The file says who holds it, for the other's message. The OS releases the
 * lock when the process dies, so a killed rank never blocks its rerun on the same machine; a network file
 * system may keep a crashed node's lock for a while (an NFSv4 lease, about 90 s; NFSv3 until the node is
 * back), and {@code SLUICE_NO_RANK_LOCK=1} runs ranks unlocked for such a case. On a file system without
 * locks the rank runs unlocked, as before.
 */
final class RankLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private RankLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock, or null when another process holds it; {@link #holder} says who. */
    static RankLock tryAcquire(Path stageDir, int rank) throws IOException {
        if ("1".equals(System.getenv("SLUICE_NO_RANK_LOCK"))) {
            return new RankLock(null, null);
        }
        Path file = file(stageDir, rank);
        Files.createDirectories(file.getParent());
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this process already
        } catch (IOException e) {
            return new RankLock(ch, null); // no locks on this file system
        }
        if (lock == null) {
            ch.close();
            return null;
        }
        RankLock held = new RankLock(ch, lock);
        try {
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(WHO_AM_I.getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            held.close();
            throw e;
        }
        return held;
    }

    /** Who holds the lock of a rank, as its holder wrote it ("pid 123 on node7"). */
    static String holder(Path stageDir, int rank) {
        try {
            String s = Files.readString(file(stageDir, rank), StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "another process" : s;
        } catch (IOException e) {
            return "another process";
        }
    }

    private static Path file(Path stageDir, int rank) {
        return stageDir.resolve("locks").resolve(String.format("%05d.lock", rank));
    }

    /** This process, as the lock file names its holder (looked up once: the host name may need DNS). */
    private static final String WHO_AM_I = whoAmI();

    private static String whoAmI() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "an unknown host";
        }
        return "pid " + ProcessHandle.current().pid() + " on " + host;
    }

    @Override
    public void close() throws IOException {
        try {
            if (lock != null) {
                lock.release();
            }
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }
}
