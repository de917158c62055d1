package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CompressionTest {
    @Test
    void choosesByExtension() {
        assertEquals(Compression.ZSTD, Compression.fromFileName("a/b.jsonl.zst"));
        assertEquals(Compression.GZIP, Compression.fromFileName("x.jsonl.gz"));
        assertEquals(Compression.NONE, Compression.fromFileName("x.jsonl"));
    }
}
