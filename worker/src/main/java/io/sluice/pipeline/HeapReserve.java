package io.sluice.pipeline;

/**
 * A few megabytes of heap set aside as the JVM starts and let go when the heap runs out, so that the failure can still
 * be told: building the message ("doc_stats failed on doc 123 of a.jsonl: out of memory; give the workers more heap")
 * ran out of memory itself when a step's tables had filled the heap, and the task log said only
 * "java.lang.OutOfMemoryError: Java heap space", the console a progress thread's uncaught error.
 */
public final class HeapReserve {
    private static volatile byte[] reserve = new byte[16 << 20];

    private HeapReserve() {
    }

    /** Sets the reserve aside (the class's first use does; at the heap's end it would be too late). */
    public static void hold() {
        if (reserve == null) {
            reserve = new byte[16 << 20]; // a later job in the same JVM (tests) gets its own
        }
    }

    /** Lets the reserve go, for {@code e} if it is an OutOfMemoryError; returns {@code e}. */
    public static <T extends Throwable> T releaseFor(T e) {
        if (e instanceof OutOfMemoryError) {
            reserve = null;
        }
        return e;
    }
}
