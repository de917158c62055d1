package io.sluice.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.luben.zstd.ZstdInputStream;
import io.sluice.io.JsonLineScanner;
import io.sluice.simd.ByteScanKernel;
import io.sluice.simd.PanamaByteScanKernel;
import io.sluice.simd.ScalarByteScanKernel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The read path's per-byte work on 8 MB of real JSONL (the start of
 * {@code ../shared/data/corpus/web_dolma_cc.jsonl.zst}, or {@code -Dsluice.bench.jsonl=FILE}):
 * line framing (scalar SWAR vs Vector API) and finding the text field of every line
 * ({@link JsonLineScanner} vs Jackson's streaming parser). Scores are operations per second over
 * the whole buffer; MB/s = 8.4 x score.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class ReadPathBench {
    private static final int SIZE = 8 << 20;
    byte[] data;
    int length;
    final ByteScanKernel scalar = new ScalarByteScanKernel();
    final ByteScanKernel panama = new PanamaByteScanKernel();
    final JsonLineScanner scanner = new JsonLineScanner("text", "id");
    final JsonFactory jackson = new JsonFactory();

    @Setup(Level.Trial)
    public void load() throws IOException {
        Path file = SharedData.path("sluice.bench.jsonl", "corpus/web_dolma_cc.jsonl.zst");
        data = new byte[SIZE];
        int n = 0;
        while (n < SIZE) { // repeat the file until the buffer is full, ending on a whole line
            try (InputStream in = new ZstdInputStream(Files.newInputStream(file))) {
                int k;
                while (n < SIZE && (k = in.read(data, n, SIZE - n)) > 0) {
                    n += k;
                }
            }
        }
        length = n;
        while (length > 0 && data[length - 1] != '\n') {
            length--;
        }
    }

    private int countLines(ByteScanKernel k) {
        int lines = 0;
        int p = 0;
        while ((p = k.indexOfLineEnd(data, p, length)) >= 0) {
            p++;
            lines++;
        }
        return lines;
    }

    @Benchmark
    public int frameLinesScalar() {
        return countLines(scalar);
    }

    @Benchmark
    public int frameLinesPanama() {
        return countLines(panama);
    }

    @Benchmark
    public long findTextSluiceScanner() {
        long total = 0;
        int p = 0;
        int nl;
        while ((nl = panama.indexOfLineEnd(data, p, length)) >= 0) {
            if (scanner.scan(data, p, nl - p)) {
                total += scanner.textEnd - scanner.textStart;
            }
            p = nl + 1;
        }
        return total;
    }

    @Benchmark
    public long findTextJacksonStreaming() throws IOException {
        long total = 0;
        int p = 0;
        int nl;
        while ((nl = panama.indexOfLineEnd(data, p, length)) >= 0) {
            try (JsonParser jp = jackson.createParser(data, p, nl - p)) {
                jp.nextToken();
                while (jp.nextToken() == JsonToken.FIELD_NAME) {
                    String name = jp.currentName();
                    jp.nextToken();
                    if (name.equals("text")) {
                        total += jp.getTextLength();
                    } else {
                        jp.skipChildren();
                    }
                }
            }
            p = nl + 1;
        }
        return total;
    }
}
