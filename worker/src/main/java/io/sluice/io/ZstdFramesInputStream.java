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
                if (betweenFrames) {
                    checkWindow();
                }
                betweenFrames = ctx.decompressDirectByteBufferStream(dst, src);
            }
        } catch (ZstdException e) {
            throw new IOException(e.getMessage(), e);
        }
        dst.flip();
        return dst.hasRemaining();
    }

    /** The largest window zstd decodes without {@code --long}, and zstd-jni's context here: 2^27 bytes. */
    static final int WINDOW_LOG_MAX = 27;

    /**
     * Refuses a frame, starting at {@code src}'s position, whose window is larger than the decoder takes: zstd-jni
     * reported it as "No error detected", read as damage, where {@code zstd --long=31} had written a valid file.
     */
    private void checkWindow() throws IOException {
        while (src.remaining() < 6) { // a frame's header cut by the end of the buffer: read on
            src.compact();
            int n = in.read(raw, 0, src.remaining());
            if (n > 0) {
                src.put(raw, 0, n);
            }
            src.flip();
            if (n < 0) {
                break;
            }
        }
        int p = src.position();
        if (src.remaining() < 6 || src.get(p) != 0x28 || src.get(p + 1) != (byte) 0xB5 || src.get(p + 2) != 0x2F
                || src.get(p + 3) != (byte) 0xFD || (src.get(p + 4) & 0x20) != 0) {
            return; // not a frame's start, or a single-segment frame (no window descriptor)
        }
        int windowLog = 10 + ((src.get(p + 5) & 0xFF) >> 3);
        if (windowLog > WINDOW_LOG_MAX) {
            throw new IOException("a frame asks for a window of 2^" + windowLog + " bytes (written with zstd --long="
                    + windowLog + "), more than the 2^" + WINDOW_LOG_MAX + " that zstd reads without --long and Sluice"
                    + " reads at all; recompress it without --long: zstd -dc --long=" + windowLog + " FILE | zstd -o NEW");
        }
    }

    @Override
    public void close() throws IOException {
        ctx.close();
        in.close();
    }
}
