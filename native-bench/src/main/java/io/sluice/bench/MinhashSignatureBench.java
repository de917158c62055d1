package io.sluice.bench;

import io.sluice.dedup.MinhashConfig;
import io.sluice.dedup.ShingleSigner;
import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.simd.PanamaMinhashKernel;
import io.sluice.simd.ScalarMinhashKernel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole MinHash signatures (simplify, split words, hash shingles, kernel) over a real corpus, one
 * thread. Score = passes over the corpus per second; MB/s of text per core = score x corpus MB
 * (printed at setup). Corpus: {@code -Dsluice.bench.corpus=<jsonl.zst>}, default the shared
 * article_extraction_clusters_dev (23.0 MB of text).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 2, time = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class MinhashSignatureBench {
    @Param({"scalar", "panama"})
    public String kernel;

    private final List<String> texts = new ArrayList<>();
    private ShingleSigner signer;
    private final long[] sig = new long[112];

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path corpus = SharedData.path("sluice.bench.corpus",
                "dedup/article_extraction_clusters_dev.jsonl.zst");
        for (Document doc : JsonlReader.readAll(corpus)) {
            texts.add(doc.text());
        }
        long bytes = texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
        System.out.printf("%n%s: %d documents, %.3f MB of text (MB/s = score x this)%n", corpus, texts.size(), bytes / 1e6);
        signer = new ShingleSigner(MinhashConfig.DEFAULT,
                kernel.equals("panama") ? new PanamaMinhashKernel() : new ScalarMinhashKernel());
    }

    @Benchmark
    public int signCorpus() {
        int signed = 0;
        for (String t : texts) {
            if (signer.sign(t, sig)) {
                signed++;
            }
        }
        return signed;
    }
}
