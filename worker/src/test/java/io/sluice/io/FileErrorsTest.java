package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class FileErrorsTest {
    @Test
    void aFileErrorIsItsPathAndWhatWentWrong() {
        assertEquals("/data/in/a.jsonl: no such file or directory", FileErrors.describe(new NoSuchFileException("/data/in/a.jsonl")));
        // a folder walk wraps it (listing an input folder with an unreadable subfolder): before, the console said
        // "error: java.nio.file.AccessDeniedException: /data/in/locked"
        assertEquals("/data/in/locked: permission denied",
                FileErrors.describe(new UncheckedIOException(new AccessDeniedException("/data/in/locked"))));
        assertEquals("plain message", FileErrors.describe(new IllegalStateException("plain message")));
    }
}
