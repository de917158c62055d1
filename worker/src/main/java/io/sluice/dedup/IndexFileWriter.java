package io.sluice.dedup;

import io.sluice.io.AtomicFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** Writes an index file ({@code .minhash.index}: bucket hashes alone, in the order given), atomically. */
final class IndexFileWriter implements AutoCloseable {
    private final AtomicFile file;
    private final ByteBuffer buffer;
    private final int per;
    private final int hashBytes;

    IndexFileWriter(Path target, MinhashConfig config) throws IOException {
        this.file = AtomicFile.create(target);
        this.per = config.hashesPerBucket();
        this.hashBytes = config.hashBytes();
        this.buffer = ByteBuffer.allocate(per * hashBytes * 4096).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Adds the hashes of a record ({@code row}'s first {@code hashes_per_bucket} values). */
    void add(long[] row) throws IOException {
        if (!buffer.hasRemaining()) {
            file.write(buffer.array(), 0, buffer.position());
            buffer.clear();
        }
        SigRecords.putHashes(buffer, row, 0, per, hashBytes);
    }

    /** Writes what is buffered and renames the file into place. */
    void commit() throws IOException {
        file.write(buffer.array(), 0, buffer.position());
        file.commit();
    }

    /** Without a commit, discards the file. */
    @Override
    public void close() throws IOException {
        file.close();
    }
}
