package io.sluice.bench;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.text.EnglishText;
import io.sluice.text.Tokens;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The spaCy-compatible English tokenizer over real web text, one thread: what filters, word statistics
 * and MinHash all pay for first. Score = passes over the corpus per second; MB/s of text = score x
 * corpus MB (printed at setup). Corpus: {@code -Dsluice.bench.corpus=<jsonl.zst>}, default the shared
 * web_dolma_cc sample.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 4)
@Measurement(iterations = 3, time = 4)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class TokenizerBench {
    private final List<String> texts = new ArrayList<>();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path corpus = SharedData.path("sluice.bench.corpus", "corpus/web_dolma_cc.jsonl.zst");
        for (Document doc : JsonlReader.readAll(corpus)) {
            texts.add(doc.text());
        }
        long bytes = texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
        System.out.printf("%n%s: %d documents, %.3f MB of text (MB/s = score x this)%n", corpus, texts.size(), bytes / 1e6);
    }

    /** Tokens only (offsets), as sentence splitting uses them. */
    @Benchmark
    public int tokenize() {
        int n = 0;
        for (String t : texts) {
            Tokens tokens = EnglishText.tokenize(t);
            n += tokens.size();
        }
        return n;
    }

    /** datatrove's word_tokenize: tokens as strings, whitespace dropped. */
    @Benchmark
    public int words() {
        int n = 0;
        for (String t : texts) {
            n += EnglishText.words(t).size();
        }
        return n;
    }
}
