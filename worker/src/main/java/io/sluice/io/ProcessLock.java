package io.sluice.io;

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
 * An exclusive lock on a file, held by this process until closed, and which the OS releases when the process
 * dies. The file names its holder ("pid 123 on node7") for the message of whoever finds it taken. On a file
 * system without locks it is granted unlocked: the callers then run as they did before they locked.
 */
public final class ProcessLock implements AutoCloseable {
    /** This process, as a lock file names its holder (looked up once: the host name may need DNS). */
    private static final String WHO_AM_I = whoAmI();
    private final FileChannel channel;
    private final FileLock lock;

    private ProcessLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** A lock that locks nothing, for callers told to run without one. */
    public static ProcessLock none() {
        return new ProcessLock(null, null);
    }

    /** The lock of {@code file} (created with its folder if need be), or null when another holder has it. */
    public static ProcessLock tryAcquire(Path file) throws IOException {
        FileChannel ch = open(file);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // this process holds it already
        } catch (IOException e) {
            return new ProcessLock(ch, null); // no locks on this file system
        }
        if (lock == null) {
            ch.close();
            return null;
        }
        return named(ch, lock);
    }

    private static FileChannel open(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** The lock, with this process's name written in its file for {@link #holder}. */
    private static ProcessLock named(FileChannel ch, FileLock lock) throws IOException {
        ProcessLock held = new ProcessLock(ch, lock);
        try {
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(WHO_AM_I.getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            held.close();
            throw e;
        }
        return held;
    }

    /**
     * The lock of {@code file} (created with its folder if need be), waiting while another process holds it;
     * granted unlocked on a file system without locks.
     */
    public static ProcessLock acquire(Path file) throws IOException {
        FileChannel ch = open(file);
        FileLock lock;
        try {
            lock = ch.lock();
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new IllegalStateException(file + " is locked by this process already", e);
        } catch (IOException e) {
            return new ProcessLock(ch, null); // no locks on this file system
        }
        return named(ch, lock); // a later waiter names this holder, not the one before it
    }

    /** Who holds the lock of {@code file}, as its holder wrote it ("pid 123 on node7"). */
    public static String holder(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "another process" : s;
        } catch (IOException e) {
            return "another process";
        }
    }

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
