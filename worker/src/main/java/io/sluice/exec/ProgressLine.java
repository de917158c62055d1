package io.sluice.exec;

import io.sluice.pipeline.ProgressCounter;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live progress line of a stage: ranks done/total, documents and MB read with their rates (once
 * there are any).
 * On a terminal it redraws one line every second; otherwise (CI, Slurm logs) it prints a line
 * every 30 seconds so logs stay short.
 */
final class ProgressLine implements AutoCloseable {
    private final PrintStream out;
    private final String stage;
    private final int total;
    private final AtomicInteger finished;
    private final ProgressCounter counter;
    private final long start = System.nanoTime();
    private final boolean tty = System.console() != null;
    private final Thread thread;

    ProgressLine(PrintStream out, String stage, int total, AtomicInteger finished, ProgressCounter counter) {
        this.out = out;
        this.stage = stage;
        this.total = total;
        this.finished = finished;
        this.counter = counter;
        thread = Thread.ofPlatform().daemon().name("progress").start(this::loop);
    }

    private void loop() {
        long period = tty ? 1000 : 30_000;
        try {
            while (true) {
                Thread.sleep(period);
                synchronized (this) {
                    out.print(tty ? "\r" + line() + "   " : line() + "\n");
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    String line() {
        double secs = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        long docs = counter.documents.sum();
        double mb = counter.bytes.sum() / 1e6;
        if (docs == 0 && mb == 0) {
            // no document read (yet): a stage of MinHash buckets or clusters reads none at all
            return String.format("[%s] ranks %d/%d | %.0fs", stage, finished.get(), total, secs);
        }
        return String.format("[%s] ranks %d/%d | %,d docs (%,.0f docs/s) | %,.1f MB (%.1f MB/s) | %.0fs",
                stage, finished.get(), total, docs, docs / secs, mb, mb / secs, secs);
    }

    /** Prints {@code message} on a line of its own, over the progress line on a terminal (redrawn next second). */
    synchronized void note(String message) {
        String blank = tty ? " ".repeat(Math.max(0, line().length() + 3 - message.length())) : "";
        out.print((tty ? "\r" : "") + message + blank + "\n");
        out.flush();
    }

    @Override
    public void close() {
        thread.interrupt();
        out.print((tty ? "\r" : "") + line() + "\n");
        out.flush();
    }
}
