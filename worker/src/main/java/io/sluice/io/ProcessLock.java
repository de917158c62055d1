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
     * granted unlocked on a file system without locks. Waits by trying again, not in a blocking lock: the
     * kernel owns POSIX locks by process, so two runs whose threads each waited for a lock the other run held
     * (rank 0 here, rank 1 there) were told "deadlock", as if one thread waited on both, and the rank ran unlocked
     * in both at once.
     */
    public static ProcessLock acquire(Path file) throws IOException {
        for (long waitMillis = 10; ; waitMillis = Math.min(500, waitMillis * 2)) {
            FileChannel ch = open(file);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                ch.close();
                throw new IllegalStateException(file + " is locked by this process already", e);
            } catch (IOException e) {
                return new ProcessLock(ch, null); // no locks on this file system
            }
            if (lock != null) {
                return named(ch, lock); // a later waiter names this holder, not the one before it
            }
            ch.close();
            try {
                Thread.sleep(waitMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for the lock of " + file);
            }
        }
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

    /** Whether {@code holder}, as {@link #holder} read it, names a process (its holder writes its name just after it takes the lock). */
    public static boolean isNamed(String holder) {
        return holder.startsWith("pid ");
    }

    /** Whether {@code holder}, as {@link #holder} read it, is another process on this host. */
    public static boolean isAnotherOnThisHost(String holder) {
        return isNamed(holder) && holder.endsWith(WHO_AM_I.substring(WHO_AM_I.indexOf(" on "))) && !holder.equals(WHO_AM_I);
    }

    /** Whether {@code holder}, as {@link #holder} read it, is a process on another host (alive or not: this one cannot tell). */
    public static boolean namesAnotherHost(String holder) {
        return isNamed(holder) && !holder.endsWith(WHO_AM_I.substring(WHO_AM_I.indexOf(" on ")));
    }

    /**
     * Whether a rank may hold one of the lock files in {@code folder} now: a live process on this host, or a
     * process on another host, which cannot be told from here.
     */
    public static boolean anyMayBeHeld(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return false;
        }
        try (var files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (namesALiveProcessHere(f) || namesAnotherHost(holder(f))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the holder {@code file} names is a live process on this host other than this one: what a status
     * report can tell without taking the lock (which a rank starting that moment would then find taken).
     */
    public static boolean namesALiveProcessHere(Path file) {
        String holder = holder(file); // "another process" when there is no file
        if (!isAnotherOnThisHost(holder)) {
            return false;
        }
        try {
            long pid = Long.parseLong(holder.substring("pid ".length(), holder.indexOf(' ', "pid ".length())));
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
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
            if (lock != null && lock.isValid()) { // closing twice is closing once
                lock.release();
            }
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }
}
