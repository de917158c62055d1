package io.sluice.text;

/** Reused per-thread char buffers that follow the document size without keeping a huge one forever. */
final class ScratchChars {
    /** Beyond this many chars a buffer is not kept for a much smaller document. */
    private static final int KEEP_LIMIT = 1 << 20;

    private ScratchChars() {
    }

    /** {@code buffer} if it holds {@code need} chars and is not a leftover of a huge document, else a new one. */
    static char[] fit(char[] buffer, int need) {
        if (buffer.length >= need && (buffer.length <= KEEP_LIMIT || need > buffer.length / 4)) {
            return buffer;
        }
        return new char[Math.max(need, 64)];
    }
}
