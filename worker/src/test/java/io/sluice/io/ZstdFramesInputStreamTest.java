package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ZstdFramesInputStreamTest {
    /**
     * A frame of zstd --long=31 is named so even when its header is cut by the end of a read: the check looked
     * only at whole headers, and such a frame was called damage again.
     */
    @Test
    void aLongWindowFrameWhoseHeaderACutReadSplitsIsNamed() throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        // a skippable frame filling the first read but for the next frame's first three bytes
        int skipped = (1 << 17) - 3 - 8;
        file.write(new byte[] {0x50, 0x2A, 0x4D, 0x18});
        file.write(new byte[] {(byte) skipped, (byte) (skipped >> 8), (byte) (skipped >> 16), (byte) (skipped >> 24)});
        file.write(new byte[skipped]);
        try (ZstdOutputStream out = new ZstdOutputStream(file)) {
            out.setWindowLog(31);
            out.write("{\"text\":\"x\"}\n".getBytes(StandardCharsets.US_ASCII));
        }
        try (InputStream in = new ZstdFramesInputStream(new ByteArrayInputStream(file.toByteArray()))) {
            IOException e = assertThrows(IOException.class, in::readAllBytes);
            assertTrue(e.getMessage().startsWith("a frame asks for a window of 2^31 bytes (written with zstd --long=31)"),
                    e.getMessage());
        }
    }
}
