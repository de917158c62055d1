package io.sluice.pipeline;

import java.util.concurrent.atomic.LongAdder;

/** Documents and uncompressed bytes read, summed over all ranks of a JVM, for the live progress line. */
public final class ProgressCounter {
    public final LongAdder documents = new LongAdder();
    public final LongAdder bytes = new LongAdder();
}
