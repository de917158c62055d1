package io.sluice.dedup;

import io.sluice.io.AtomicFile;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts a file of signature records into a new file, holding at most {@code maxRows} records in
 * memory: larger inputs are cut into sorted runs on disk (next to the target, named
 * {@code <target>.run<k>.tmp}) and merged. This is what keeps stage 1's memory independent of how
 * many documents a rank reads.
 */
final class SigFileSorter {
    private final int per;
    private final int width;
    private final int hashBytes;
    private final int recBytes;
    private final int maxRows;

    SigFileSorter(MinhashConfig config, long memoryBytes) {
        this.per = config.hashesPerBucket();
        this.width = per + 1;
        this.hashBytes = config.hashBytes();
        this.recBytes = config.sigRecordBytes();
        // a row costs its longs plus an int of the sort order and one of its scratch copy
        long perRow = 8L * width + 8;
        this.maxRows = (int) Math.max(16, Math.min(Integer.MAX_VALUE / width - 1, memoryBytes / perRow));
    }

    /** Writes the records of {@code unsorted} to {@code target} (atomically), ascending. */
    void sort(Path unsorted, Path target) throws IOException {
        long rows = Files.size(unsorted) / recBytes;
        List<Path> runs = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(unsorted), 1 << 16)) {
            if (rows <= maxRows) {
                try (AtomicFile out = AtomicFile.create(target)) {
                    sortChunk(in, (int) rows, out);
                    out.commit();
                }
                return;
            }
            for (long done = 0; done < rows; done += maxRows) {
                Path run = target.resolveSibling(target.getFileName() + ".run" + runs.size() + AtomicFile.TMP_SUFFIX);
                runs.add(run);
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(run), 1 << 16)) {
                    sortChunk(in, (int) Math.min(maxRows, rows - done), out);
                }
            }
            merge(runs, target);
        } finally {
            for (Path run : runs) {
                Files.deleteIfExists(run);
            }
        }
    }

    private void sortChunk(InputStream in, int rows, OutputStream out) throws IOException {
        long[] data = new long[rows * width];
        byte[] bytes = new byte[recBytes];
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        DataInputStream din = new DataInputStream(in);
        for (int r = 0; r < rows; r++) {
            din.readFully(bytes);
            bb.clear();
            SigRecords.get(bb, data, r * width, per, hashBytes);
        }
        ByteBuffer buf = ByteBuffer.allocate(recBytes * 1024).order(ByteOrder.LITTLE_ENDIAN);
        for (int r : SigRecords.sortedOrder(data, width, rows)) {
            if (buf.remaining() < recBytes) {
                out.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            SigRecords.put(buf, data, r * width, per, data[r * width + per], hashBytes);
        }
        out.write(buf.array(), 0, buf.position());
    }

    /** One sorted run being merged: its current record. */
    private final class Run {
        final DataInputStream in;
        final long[] row = new long[width];
        final byte[] bytes = new byte[recBytes];
        final ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long left;

        Run(Path file) throws IOException {
            in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
            left = Files.size(file) / recBytes;
        }

        boolean next() throws IOException {
            if (left == 0) {
                return false;
            }
            left--;
            in.readFully(bytes);
            bb.clear();
            SigRecords.get(bb, row, 0, per, hashBytes);
            return true;
        }
    }

    private void merge(List<Path> runFiles, Path target) throws IOException {
        PriorityQueue<Run> queue = new PriorityQueue<>((x, y) -> SigRecords.compare(x.row, 0, y.row, 0, width));
        List<Run> runs = new ArrayList<>();
        try (AtomicFile out = AtomicFile.create(target)) {
            for (Path f : runFiles) {
                Run r = new Run(f);
                runs.add(r);
                if (r.next()) {
                    queue.add(r);
                }
            }
            ByteBuffer buf = ByteBuffer.allocate(recBytes * 1024).order(ByteOrder.LITTLE_ENDIAN);
            while (!queue.isEmpty()) {
                Run r = queue.poll();
                if (buf.remaining() < recBytes) {
                    out.write(buf.array(), 0, buf.position());
                    buf.clear();
                }
                SigRecords.put(buf, r.row, 0, per, r.row[per], hashBytes);
                if (r.next()) {
                    queue.add(r);
                }
            }
            out.write(buf.array(), 0, buf.position());
            out.commit();
        } finally {
            for (Run r : runs) {
                r.in.close();
            }
        }
    }
}
