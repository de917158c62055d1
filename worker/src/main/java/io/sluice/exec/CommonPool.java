package io.sluice.exec;

/**
 * Sizes the JDK's common fork-join pool to every core the process may use. Its default, cores - 1,
 * assumes the calling thread works beside the pool; but lingua (the language filter) hands each
 * document's per-language scoring to that pool while the rank thread waits, so on 2 cores only one
 * was busy: a 3200-document language_filter job took 27-32 s at 1.35 cores, and 20-22 s at 1.87 cores
 * with the pool at 2. A parallelism given with {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism}
 * is kept.
 */
public final class CommonPool {
    static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private CommonPool() {
    }

    /** Must run before anything touches the pool, which reads the property once: first thing in main. */
    public static void useAllCores() {
        if (System.getProperty(PARALLELISM) == null) {
            System.setProperty(PARALLELISM, Integer.toString(Runtime.getRuntime().availableProcessors()));
        }
    }
}
