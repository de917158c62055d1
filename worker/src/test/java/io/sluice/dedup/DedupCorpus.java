package io.sluice.dedup;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import io.sluice.text.EnglishText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Test helpers: the shared dedup corpora and running one step over documents as one rank. */
final class DedupCorpus {
    private DedupCorpus() {
    }

    static Path shared() {
        Path p = Path.of(System.getProperty("sluice.shared", "/work/shared"));
        Assumptions.assumeTrue(Files.isDirectory(p.resolve("data/golden/minhash")), "shared data not present");
        return p;
    }

    /**
     * Exact parity needs datatrove's spaCy word splitting of the simplified text (e.g. "didnt" is
     * "did" + "nt"); the interim whitespace {@code EnglishText} gets 95 of the 100 clough documents right.
     */
    static void assumeSpacyTokenizer() {
        Assumptions.assumeTrue(EnglishText.words("didnt").size() == 2,
                "EnglishText is still the interim whitespace tokenizer (merge branch text for exact parity)");
    }

    static List<Document> read(Path file) throws IOException {
        return JsonlReader.readAll(file);
    }

    /** Runs {@code step} over {@code docs} as {@code rank} of {@code world}; returns the forwarded documents. */
    /** Writes {@code yaml} to {@code jobFile} and runs the job here; whether every rank completed. */
    static boolean runJob(Path jobFile, String yaml, java.io.ByteArrayOutputStream console) throws IOException {
        java.nio.file.Files.writeString(jobFile, yaml);
        return new io.sluice.exec.LocalExecutor(io.sluice.job.JobFile.load(jobFile), new java.io.PrintStream(console, true)).run(null);
    }

    static List<Document> run(Step step, List<Document> docs, int rank, int world, Path stageDir) throws IOException {
        List<Document> out = new ArrayList<>();
        StepContext base = StepContext.standalone("test", stageDir);
        StepContext ctx = new StepContext(rank, world, base.stats(), base.log(), stageDir, base.progress());
        DocumentSink sink = out::add;
        try {
            io.sluice.pipeline.Pipeline.checkStage(step, "step", world, !docs.isEmpty()); // as a rank's pipeline does
            step.open(ctx);
            for (Document d : docs) {
                step.process(d, sink);
            }
            step.finish(sink);
        } finally {
            step.close();
        }
        return out;
    }
}
