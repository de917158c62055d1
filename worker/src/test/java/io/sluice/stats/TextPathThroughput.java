package io.sluice.stats;

import io.sluice.dedup.MinhashConfig;
import io.sluice.dedup.ShingleSigner;
import io.sluice.doc.Document;
import io.sluice.filters.C4QualityFilter;
import io.sluice.filters.FineWebQualityFilter;
import io.sluice.filters.GopherQualityFilter;
import io.sluice.filters.GopherRepetitionFilter;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import io.sluice.text.EnglishText;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Single-thread speed of the hot text paths over corpora (not a test: run by hand with the test
 * classpath, arguments: rounds, then .jsonl.zst files): {@code EnglishText.words}, the four-filter
 * chain (Gopher quality, Gopher repetition, C4, FineWeb), {@code word_stats} and the MinHash signature.
 * Speeds are in MB of UTF-8 text per CPU-second of this thread, so they hold on a busy machine. Each
 * path also prints a digest of everything it computed, so an optimisation can be checked to change no
 * result (the digest must stay the same).
 */
public final class TextPathThroughput {
    private TextPathThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        List<String> texts = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            for (Document d : StatsRun.readCorpus(Path.of(args[i]))) {
                texts.add(d.text());
            }
        }
        long bytes = texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
        System.out.printf("%d texts, %.1f MB%n", texts.size(), bytes / 1e6);
        List<Filter> chain = List.of(new GopherQualityFilter(StepArgs.of(Map.of())),
                new GopherRepetitionFilter(StepArgs.of(Map.of())), new C4QualityFilter(StepArgs.of(Map.of())),
                new FineWebQualityFilter(StepArgs.of(Map.of())));
        Map<String, Object> statArgs = new LinkedHashMap<>();
        statArgs.put("output", "unused");
        WordStats wordStats = new WordStats(new StepArgs("word_stats", statArgs));
        ShingleSigner signer = new ShingleSigner(MinhashConfig.DEFAULT);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < rounds; round++) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            long t0 = cpu.getCurrentThreadCpuTime();
            long wordsHash = 0; // cheap, so the words figure is the tokenizer's time
            for (String text : texts) {
                for (String w : EnglishText.words(text)) {
                    wordsHash = wordsHash * 31 + w.hashCode() + w.length();
                }
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            long[] perFilter = new long[chain.size()];
            String wordsDigest = Long.toHexString(wordsHash);
            for (String text : texts) {
                // a fresh String per document, as a reader would give, so no cache carries over
                Document doc = new Document("x", new String(text), new LinkedHashMap<>());
                String verdict = "keep";
                for (int k = 0; k < chain.size(); k++) {
                    long f0 = cpu.getCurrentThreadCpuTime();
                    Verdict v = chain.get(k).filter(doc);
                    perFilter[k] += cpu.getCurrentThreadCpuTime() - f0;
                    if (v != Verdict.KEEP) {
                        verdict = v.toString();
                        break;
                    }
                }
                d.update(verdict.getBytes(StandardCharsets.UTF_8));
                d.update(doc.text().getBytes(StandardCharsets.UTF_8));
            }
            String filtersDigest = hex(d);
            long tChain = cpu.getCurrentThreadCpuTime();
            // every filter on every document (the chain above stops at the first drop), so the later
            // filters' own costs show; they share one text instance, so only the first tokenizes
            long[] alone = new long[chain.size()];
            for (String text : texts) {
                String shared = new String(text);
                for (int k = 0; k < chain.size(); k++) {
                    long f0 = cpu.getCurrentThreadCpuTime();
                    Verdict v = chain.get(k).filter(new Document("x", shared, new LinkedHashMap<>()));
                    alone[k] += cpu.getCurrentThreadCpuTime() - f0;
                    d.update(v.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            double[] out = new double[wordStats.statNames().size()];
            for (String text : texts) {
                wordStats.extract(new String(text), out);
                for (double v : out) {
                    d.update(Double.toString(v).getBytes(StandardCharsets.UTF_8));
                }
            }
            String statsDigest = hex(d);
            long t3 = cpu.getCurrentThreadCpuTime();
            long[] sig = new long[MinhashConfig.DEFAULT.numHashes()];
            for (String text : texts) {
                if (signer.sign(text, sig)) {
                    for (long v : sig) {
                        d.update(Long.toString(v).getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
            String minhashDigest = hex(d);
            long t4 = cpu.getCurrentThreadCpuTime();
            System.out.printf("round %d MB/CPU-s: words %.1f  filters %.1f  word_stats %.1f  minhash %.1f%n", round,
                    mbps(bytes, t1 - t0), mbps(bytes, tChain - t1), mbps(bytes, t3 - t2), mbps(bytes, t4 - t3));
            System.out.printf("  filter CPU-s: gopher_quality %.2f gopher_repetition %.2f c4 %.2f fineweb %.2f%n",
                    perFilter[0] / 1e9, perFilter[1] / 1e9, perFilter[2] / 1e9, perFilter[3] / 1e9);
            System.out.printf("  each filter on all docs, CPU-s: gopher_quality (tokenizes) %.2f gopher_repetition %.2f"
                    + " c4 %.2f fineweb %.2f%n", alone[0] / 1e9, alone[1] / 1e9, alone[2] / 1e9, alone[3] / 1e9);
            if (round == 0) {
                System.out.printf("digests: words %s filters %s word_stats %s minhash %s%n", wordsDigest,
                        filtersDigest, statsDigest, minhashDigest);
            }
        }
    }

    private static double mbps(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    /** Digest so far (12 hex digits); the digest restarts empty. */
    private static String hex(MessageDigest d) {
        return HexFormat.of().formatHex(d.digest()).substring(0, 12);
    }
}
