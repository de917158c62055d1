package io.sluice.text;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Prints the single-thread speed of {@link EnglishText#words} and {@link EnglishText#sentences} over a
 * corpus (not a test: run by hand, e.g.
 * {@code java -cp <test-classpath> io.sluice.text.TokenizerThroughput ../shared/data/corpus/web_dolma_cc.jsonl.zst}).
 */
public final class TokenizerThroughput {
    private TokenizerThroughput() {
    }

    public static void main(String[] args) throws Exception {
        List<String> texts = GoldenTextParityTest.readTexts(Path.of(args[0]));
        long bytes = texts.stream().mapToLong(t -> t.getBytes(StandardCharsets.UTF_8).length).sum();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        // CPU time of this thread, so the figure is per core even on a busy machine.
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < rounds; round++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            long words = 0;
            for (String text : texts) {
                words += EnglishText.words(text).size();
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            long sentences = 0;
            for (String text : texts) {
                sentences += EnglishText.sentences(text).size();
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            System.out.printf("round %d: words %.1f MB per CPU-second (%d words), sentences %.1f MB per CPU-second"
                    + " (%d sentences)%n", round, bytes / 1e6 / ((t1 - t0) / 1e9), words,
                    bytes / 1e6 / ((t2 - t1) / 1e9), sentences);
        }
    }
}
