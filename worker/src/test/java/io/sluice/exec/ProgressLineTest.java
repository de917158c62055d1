package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.pipeline.ProgressCounter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
    @Test
    void documentsAndMegabytesAppearOnlyOnceThereAreAny() {
        ProgressCounter counter = new ProgressCounter();
        try (ProgressLine line = new ProgressLine(new PrintStream(new ByteArrayOutputStream()), "buckets", 14,
                new AtomicInteger(3), counter)) {
            String none = line.line();
            assertTrue(none.startsWith("[buckets] ranks 3/14 | ") && !none.contains("docs"), none);
            counter.documents.add(1200);
            counter.bytes.add(3_000_000);
            String some = line.line();
            assertTrue(some.startsWith("[buckets] ranks 3/14 | 1,200 docs (") && some.contains("| 3.0 MB ("), some);
        }
    }
}
