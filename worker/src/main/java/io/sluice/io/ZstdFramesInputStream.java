package io.sluice.io;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Decompresses a file of one or more zstd frames, and fails when the file ends inside a frame.
 * zstd-jni's {@code ZstdInputStream} (1.5.6) can miss that: when a frame ends and the start of a
 * truncated next frame arrived in the same read, it reports a clean end, and the documents of the cut
 * frame were lost without a word. Here the end of the file is accepted only after zstd said the frame
 * was complete (decoded and flushed).
 */
final class ZstdFramesInputStream extends InputStream {
    private static final int BUFFER = 1 << 17;

    private final InputStream in;
    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private final byte[] raw = new byte[BUFFER];
    private final ByteBuffer src = ByteBuffer.allocateDirect(BUFFER).flip();
    private final ByteBuffer dst = ByteBuffer.allocateDirect(BUFFER).flip();
    /** True when no frame is open: at the start, and after zstd reported a frame complete. */
    private boolean betweenFrames = true;
    private boolean end;
    private final byte[] one = new byte[1];

    ZstdFramesInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!dst.hasRemaining()) {
            if (end || !decompressMore()) {
                return -1;
            }
        }
        int n = Math.min(len, dst.remaining());
        dst.get(b, off, n);
        return n;
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    /** Refills {@code dst} with at least one byte; false at a clean end of the file. */
    private boolean decompressMore() throws IOException {
        dst.clear();
        try {
            while (dst.position() == 0) {
                if (!src.hasRemaining()) {
                    int n = in.read(raw);
                    if (n < 0) {
                        // zstd may still hold output of a frame whose input is all read; one call with no
                        // input flushes it and says whether the frame is complete
                        if (!betweenFrames) {
                            betweenFrames = ctx.decompressDirectByteBufferStream(dst, src);
                            if (dst.position() > 0) {
                                break;
                            }
                            if (!betweenFrames) {
                                throw new IOException("truncated: the file ends inside a zstd frame");
                            }
                        }
                        end = true;
                        break;
                    }
                    src.clear();
                    src.put(raw, 0, n);
                    src.flip();
                }
                betweenFrames = ctx.decompressDirectByteBufferStream(dst, src);
            }
        } catch (ZstdException e) {
            throw new IOException(e.getMessage(), e);
        }
        dst.flip();
        return dst.hasRemaining();
    }

    @Override
    public void close() throws IOException {
        ctx.close();
        in.close();
    }
}
