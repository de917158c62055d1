package io.sluice.dedup;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams a file of little-endian uint32 records of {@code width} values whose first value (a
 * document index) strictly increases, as stage 3 writes them; a truncated or unsorted file fails
 * with its path.
 */
final class U32File implements Closeable {
    private final Path path;
    private final int width;
    private final InputStream in;
    private final long records;
    private long read;
    private final long[] current;
    private boolean has;

    U32File(Path path, int width) throws IOException {
        this.path = path;
        this.width = width;
        long size = Files.size(path);
        if (size % (4L * width) != 0) {
            throw new IOException(path + ": truncated or corrupt file: " + size + " bytes is not a multiple of "
                    + (4 * width) + " (" + width + " uint32 per record)");
        }
        this.records = size / (4L * width);
        this.in = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
        this.current = new long[width];
        advance();
    }

    Path path() {
        return path;
    }

    /** Whether a record is available; {@link #value(int)} reads it. */
    boolean has() {
        return has;
    }

    long value(int k) {
        return current[k];
    }

    void advance() throws IOException {
        if (read >= records) {
            has = false;
            return;
        }
        long previous = has ? current[0] : -1;
        for (int k = 0; k < width; k++) {
            current[k] = readU32();
        }
        if (current[0] <= previous) {
            throw new IOException(path + ": corrupt file: record " + read + " has document index " + current[0]
                    + ", not above the previous " + previous);
        }
        read++;
        has = true;
    }

    private long readU32() throws IOException {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            int b = in.read();
            if (b < 0) {
                throw new IOException(path + ": file ended early at record " + read);
            }
            v |= (long) b << (8 * i);
        }
        return v;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
