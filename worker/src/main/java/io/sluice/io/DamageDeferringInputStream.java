package io.sluice.io;

import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.compressors.CompressorInputStream;

/**
 * A commons-compress decompressor that gives the bytes it decoded before damage in the file, then the error.
 * commons-compress fills the caller's buffer before it returns and throws away what it had decoded into it
 * when the stream breaks, so a file cut short or followed by junk lost the megabyte of documents read just
 * before the damage ({@code bzip2 -dc} gives them), and the error named a line that far back. What a read
 * gave before the break is known from the decoder's count: the gzip and bzip2 decoders count as they go,
 * exactly; the xz decoder counts only what a read returns, so its reads are asked for {@link #MOST} bytes at
 * a time, and at most that much before the damage is lost. The gzip decoder counts after each inflate call, and
 * an inflate that meets bad deflate data throws what it wrote before: its reads are asked for {@link #MOST_INFLATED}
 * bytes, so that a small file damaged inside is not lost whole, and the error names a line near the damage (it
 * said "after line 0, uncompressed byte 0").
 */
final class DamageDeferringInputStream extends InputStream {
    /** The most bytes one read of an xz decoder is asked for. */
    static final int MOST = 1024;
    /** The most bytes one read of a gzip member is asked for: a few inflate calls per 64 KB buffer of the file. */
    static final int MOST_INFLATED = 8192;

    private final CompressorInputStream in;
    private final int most;
    /** Where the stream broke, thrown once the bytes decoded before it are read. */
    private IOException damage;
    private final byte[] one = new byte[1];

    /** @param most the most bytes one read asks {@code in} for: {@link #MOST} for a decoder that counts late */
    DamageDeferringInputStream(CompressorInputStream in, int most) {
        this.in = in;
        this.most = most;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (damage != null) {
            throw damage;
        }
        long before = in.getBytesRead();
        try {
            return in.read(b, off, Math.min(len, most));
        } catch (IOException e) {
            long decoded = in.getBytesRead() - before;
            if (decoded <= 0) {
                throw e;
            }
            damage = e;
            return (int) decoded;
        }
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
