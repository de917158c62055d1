package io.sluice.dedup;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streams the records of one sorted signature file whose first hash lies in [hashMin, hashMax),
 * checking as it goes that the file is whole (a multiple of the record size) and sorted; both
 * problems fail with the file's path and the record number. Reads index files too ({@link #index}),
 * whose records have no document index.
 */
final class SigFileReader implements Closeable {
    final Path path;
    /**
     * Position of the file in the bucket's sorted file list: datatrove's merge tie-break; -1 for an index
     * file, whose records come before the documents with the same hashes, as in datatrove.
     */
    final int fileIndex;
    /** The rank that wrote the file (its name without {@code .minhash.sig}), written into .dups pairs; -1 for an index. */
    final int fileRank;
    private final boolean indexFile;
    private final FileChannel ch;
    private final int per;
    private final int hashBytes;
    private final int recBytes;
    private final long records;
    private final long hashMax;
    private final ByteBuffer buf;
    private long nextRecord;
    /** The current record: hashes, then the document index (-1 in an index file). */
    final long[] row;
    private final long[] previous;
    private boolean hasPrevious;

    SigFileReader(Path path, int fileIndex, MinhashConfig config, int bufferBytes, long hashMin, long hashMax)
            throws IOException {
        this(path, fileIndex, rankOf(path), false, config, bufferBytes, hashMin, hashMax);
    }

    /** A reader of an index file ({@code .minhash.index}: sorted, distinct bucket hashes). */
    static SigFileReader index(Path path, MinhashConfig config, int bufferBytes, long hashMin, long hashMax)
            throws IOException {
        return new SigFileReader(path, -1, -1, true, config, bufferBytes, hashMin, hashMax);
    }

    private SigFileReader(Path path, int fileIndex, int fileRank, boolean indexFile, MinhashConfig config,
                          int bufferBytes, long hashMin, long hashMax) throws IOException {
        this.path = path;
        this.fileIndex = fileIndex;
        this.fileRank = fileRank;
        this.indexFile = indexFile;
        this.per = config.hashesPerBucket();
        this.hashBytes = config.hashBytes();
        this.recBytes = indexFile ? per * hashBytes : config.sigRecordBytes();
        this.hashMax = hashMax;
        this.ch = FileChannel.open(path, StandardOpenOption.READ);
        long size = ch.size();
        if (size % recBytes != 0) {
            ch.close();
            throw new IOException(path + ": truncated or corrupt " + (indexFile ? "index" : "signature") + " file: "
                    + size + " bytes is not a multiple of the record size " + recBytes + " (" + per + " hashes of "
                    + hashBytes + " bytes" + (indexFile ? "" : " + a 4-byte document index") + "): written with"
                    + " other hashes_per_bucket or precision than this stage's, or damaged");
        }
        this.records = size / recBytes;
        this.buf = ByteBuffer.allocate(Math.max(1, bufferBytes / recBytes) * recBytes).order(ByteOrder.LITTLE_ENDIAN);
        this.buf.limit(0);
        this.row = new long[per + 1];
        this.previous = new long[per + 1];
        this.nextRecord = hashMin == 0 ? 0 : firstRecordAtLeast(hashMin);
        ch.position(nextRecord * recBytes);
    }

    static int rankOf(Path file) throws IOException {
        String name = file.getFileName().toString();
        String stem = name.substring(0, name.length() - ".minhash.sig".length());
        try {
            return Integer.parseInt(stem);
        } catch (NumberFormatException e) {
            throw new IOException(file + ": a signature file must be named <rank>.minhash.sig");
        }
    }

    /** The first hash of record {@code r}. */
    long firstHash(long r) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(hashBytes).order(ByteOrder.LITTLE_ENDIAN);
        while (one.hasRemaining()) {
            if (ch.read(one, r * recBytes + one.position()) < 0) {
                throw new IOException(path + ": unexpected end of file at record " + r);
            }
        }
        one.flip();
        return hashBytes == 8 ? one.getLong() : Integer.toUnsignedLong(one.getInt());
    }

    long records() {
        return records;
    }

    /** Binary search: the first record whose first hash is >= {@code hashMin}. */
    private long firstRecordAtLeast(long hashMin) throws IOException {
        long lo = 0;
        long hi = records;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (firstHash(mid) < hashMin) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Loads the next record in range into {@link #row}; false at the end of the range or file. */
    boolean next() throws IOException {
        if (nextRecord >= records) {
            return false;
        }
        if (!buf.hasRemaining()) {
            buf.clear();
            long want = Math.min(buf.capacity(), (records - nextRecord) * recBytes);
            buf.limit((int) want);
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    throw new IOException(path + ": file shrank while being read, at record " + nextRecord);
                }
            }
            buf.flip();
        }
        if (indexFile) {
            SigRecords.getHashes(buf, row, 0, per, hashBytes);
            row[per] = -1;
        } else {
            SigRecords.get(buf, row, 0, per, hashBytes);
        }
        if (row[0] >= hashMax) {
            nextRecord = records;
            return false;
        }
        if (hasPrevious && SigRecords.compare(row, 0, previous, 0, per) < 0) {
            throw new IOException(path + ": corrupt " + (indexFile ? "index" : "signature") + " file: record "
                    + nextRecord + " sorts before the one preceding it (files must be sorted as minhash_signature"
                    + " and minhash_build_index write them):"
                    + " written with other hashes_per_bucket or precision than this stage's, or damaged");
        }
        System.arraycopy(row, 0, previous, 0, per + 1);
        hasPrevious = true;
        nextRecord++;
        return true;
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
