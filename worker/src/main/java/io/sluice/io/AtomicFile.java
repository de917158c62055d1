package io.sluice.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An output file written under a temporary name ({@code <name>.tmp}, which no {@code *.jsonl*} glob
 * matches) and renamed into place by {@link #commit()}. A process killed before the commit leaves no
 * file under the final name; the next attempt overwrites the temporary one.
 */
public final class AtomicFile extends FilterOutputStream {
    public static final String TMP_SUFFIX = ".tmp";
    private final Path target;
    private final Path tmp;
    private final FileChannel channel;
    private boolean closed;

    private AtomicFile(Path target, Path tmp, FileChannel channel) {
        super(Channels.newOutputStream(channel));
        this.target = target;
        this.tmp = tmp;
        this.channel = channel;
    }

    public static AtomicFile create(Path target) throws IOException {
        return create(target, "");
    }

    private static AtomicFile create(Path target, String unique) throws IOException {
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(target.getFileName() + unique + TMP_SUFFIX);
        FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return new AtomicFile(target, tmp, ch);
    }

    /**
     * Writes all of {@code bytes} to {@code target} atomically, for a file one process writes (a rank's
     * outputs, its stats and completion marker). The temporary name is fixed, so a run killed before
     * the rename leaves a temporary file that the next attempt overwrites and renames: a killed and
     * re-run rank leaves exactly the files of an uninterrupted one.
     */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, bytes, "");
    }

    /**
     * {@link #write} for a file several processes may write at once, such as a stage's
     * {@code stats.json} or {@code shard_plan.json} (Slurm array elements): the temporary name is unique
     * to the writer, the last rename wins and every version is complete. Unique by a random part, not by
     * pid alone: array elements on different nodes of a shared file system can have the same pid. A
     * process killed between the two steps leaves its temporary file behind; the next write of the file
     * removes such files once they are a minute old (a live writer's lasts milliseconds).
     */
    public static void writeShared(Path target, byte[] bytes) throws IOException {
        write(target, bytes, sharedTag());
        removeAbandonedTemporaries(target);
    }

    /** ".<pid>-<hex>": what makes a shared temporary name unique to its writer. */
    private static String sharedTag() {
        return "." + ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /**
     * A temporary name for {@code target} of the form {@link #writeShared} uses, for a writer that makes the file
     * another way (a hard link): {@link #removeAbandonedSharedTemporaries} removes it if its writer is killed.
     */
    public static Path sharedTemporaryOf(Path target) {
        return target.resolveSibling(target.getFileName() + sharedTag() + TMP_SUFFIX);
    }

    /** A temporary name of {@link #writeShared}: {@code <name>.<pid>-<hex>.tmp}. */
    private static final java.util.regex.Pattern SHARED_TEMPORARY = java.util.regex.Pattern.compile(".+\\.\\d+-[0-9a-f]+\\.tmp");

    /**
     * Removes the minute-old temporary files of {@link #writeShared} in {@code dir}, whatever file they were for:
     * a file written once (a stage's shard_plan.json, settings) is not written again to clean its own, and a
     * writer killed between its two steps left them for good.
     */
    public static void removeAbandonedSharedTemporaries(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            removeMinuteOld(dir, name -> SHARED_TEMPORARY.matcher(name).matches());
        }
    }

    private static void removeAbandonedTemporaries(Path target) throws IOException {
        String prefix = target.getFileName() + ".";
        removeMinuteOld(target.toAbsolutePath().getParent(), name -> name.startsWith(prefix) && name.endsWith(TMP_SUFFIX));
    }

    /** Removes the files of {@code dir} whose names pass {@code names} and that are a minute old (a live writer's are not). */
    private static void removeMinuteOld(Path dir, java.util.function.Predicate<String> names) throws IOException {
        long before = System.currentTimeMillis() - 60_000;
        try (var found = Files.newDirectoryStream(dir, f -> names.test(f.getFileName().toString()))) {
            for (Path tmp : found) {
                try {
                    if (Files.getLastModifiedTime(tmp).toMillis() < before) {
                        Files.deleteIfExists(tmp);
                    }
                } catch (java.nio.file.NoSuchFileException e) {
                    // renamed or removed by another process meanwhile
                }
            }
        }
    }

    /**
     * {@link #write} for many small files at once, each complete under its name or absent: written under
     * temporary names, flushed to disk together, then renamed. One fsync after another waits for one disk
     * flush each (a statistics rank's 168 files took 0.6-0.8 s so on a virtual disk); issued together,
     * the file system flushes them in a few. Each file's bytes are made as it is written and let go: a statistics
     * rank's domain files can be hundreds of megabytes each, and holding them all at once ran a rank out of memory
     * after its last document.
     */
    public static void writeAll(Map<Path, Content> files) throws IOException {
        List<Map.Entry<Path, Content>> all = List.copyOf(files.entrySet());
        for (int from = 0; from < all.size(); from += MAX_OPEN) { // a bounded number of open files
            List<AtomicFile> batch = new ArrayList<>();
            try {
                for (Map.Entry<Path, Content> e : all.subList(from, Math.min(all.size(), from + MAX_OPEN))) {
                    AtomicFile f = create(e.getKey(), "");
                    batch.add(f);
                    f.write(e.getValue().bytes());
                    f.out.flush();
                }
                forceAll(batch);
                for (AtomicFile f : batch) {
                    f.install();
                }
            } finally {
                for (AtomicFile f : batch) {
                    f.close(); // removes the temporary file of one not installed
                }
            }
        }
    }

    /** A file's bytes for {@link #writeAll}, made when it is written. */
    public interface Content {
        byte[] bytes() throws IOException;
    }

    private static final int MAX_OPEN = 256;

    private static void forceAll(List<AtomicFile> files) throws IOException {
        try (ExecutorService syncs = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> pending = new ArrayList<>();
            for (AtomicFile f : files) {
                pending.add(syncs.submit(() -> {
                    f.channel.force(false);
                    return null;
                }));
            }
            for (Future<?> p : pending) {
                try {
                    p.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while syncing " + files.size() + " files");
                }
            }
        }
    }

    private static void write(Path target, byte[] bytes, String unique) throws IOException {
        try (AtomicFile f = create(target, unique)) {
            f.write(bytes);
            f.commit();
        }
    }

    public Path target() {
        return target;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    /** Flushes to disk and renames into place. */
    public void commit() throws IOException {
        out.flush();
        channel.force(false);
        install();
    }

    /** Closes the flushed and synced temporary file and renames it into place. */
    private void install() throws IOException {
        closed = true;
        out.close();
        try {
            move(tmp, target);
        } catch (IOException e) {
            Files.deleteIfExists(tmp); // the target is a folder, say: nothing of this write stays behind
            throw e;
        }
    }

    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Without a commit, closing discards the temporary file. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            try {
                out.close();
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
