package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.FileErrors;
import io.sluice.io.InputPiece;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs the steps of one rank: the first step (a {@link DocumentSource}) pushes documents through the
 * others one at a time. Every step gets the counter {@code forwarded} (documents passed on) and the
 * lengths of those documents ({@link StepStats#DOC_LEN}), every step after the reader {@code total}
 * (documents received; the reader counts its own), and every step its own time, not counting the steps
 * after it.
 */
public final class Pipeline {
    private final List<Step> steps;
    private final List<Link> links = new ArrayList<>();

    public Pipeline(List<Step> steps, List<String> names) {
        HeapReserve.hold();
        this.steps = steps;
        Link next = null;
        for (int i = steps.size() - 1; i >= 0; i--) {
            next = new Link(steps.get(i), new StepStats(names.get(i)), next);
            links.add(0, next);
        }
    }

    public List<StepStats> stats() {
        List<StepStats> out = new ArrayList<>();
        for (Link l : links) {
            out.add(l.stats);
        }
        return out;
    }

    /** Opens every step, reads this rank's pieces, finishes every step; closes them in any case. */
    public void run(List<InputPiece> pieces, IntFunction<StepContext> contextForStep) throws IOException {
        try {
            boolean reader = !steps.isEmpty() && steps.get(0) instanceof DocumentSource;
            for (int i = 0; i < steps.size(); i++) {
                StepContext ctx = contextForStep.apply(i);
                checkStage(steps.get(i), links.get(i).stats.name(), ctx.worldSize(), reader && i > 0);
                steps.get(i).open(ctx);
            }
            if (!links.isEmpty() && steps.get(0) instanceof DocumentSource source) {
                links.get(0).timed(() -> source.read(pieces, links.get(0).out));
            }
            for (Link l : links) {
                l.finish();
            }
        } finally {
            for (Step s : steps) {
                try {
                    s.close();
                } catch (RuntimeException e) {
                    // closing must not hide the failure that got us here
                }
            }
            for (Link l : links) {
                if (!(l.step instanceof DocumentSource)) {
                    l.stats.add("total", l.total);
                }
                l.stats.add("forwarded", l.forwarded);
            }
        }
    }

    /**
     * A step that failed, named, with the document it failed on: without it, an exception inside a step
     * (or an {@code Error}: a regex's recursion overflowing the stack, the heap running out) said neither.
     */
    public static final class StepFailure extends IOException {
        StepFailure(String message, Throwable cause) {
            super(message, cause);
        }

        public static String reason(Throwable e) {
            if (e instanceof StackOverflowError) {
                return "the stack overflowed (java.util.regex recurses once per repetition of a group such as"
                        + " (a|b)+, so such a pattern over a very long text can; a simpler pattern avoids it)";
            }
            if (e instanceof OutOfMemoryError) {
                return "out of memory (" + e.getMessage() + "); give the workers more heap (SLUICE_JAVA_OPTS=-Xmx...,"
                        + " or the slurm block's memory) or fewer workers";
            }
            return e.getMessage() == null ? e.getClass().getName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /**
     * {@link Step#stageProblem} once more as the rank starts: the job file's check covers jobs, this one also
     * steps built in code, so no step needs to repeat it in its own {@code open} and {@code process}.
     */
    public static void checkStage(Step step, String name, int worldSize, boolean documents) throws IOException {
        String problem = step.stageProblem(worldSize, documents);
        if (problem != null) {
            throw new IOException(name + ": " + problem);
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    /** One step with its counters; it is the sink the step before it sends documents to. */
    private static final class Link implements DocumentSink {
        final Step step;
        final StepStats stats;
        final Link next;
        final DocumentSink out;
        long inclusiveNanos;
        long total;
        long forwarded;

        Link(Step step, StepStats stats, Link next) {
            this.step = step;
            this.stats = stats;
            this.next = next;
            this.out = doc -> {
                forwarded++;
                stats.addDocumentLengths(doc.textLength(), doc.tokenCount());
                if (next != null) {
                    next.accept(doc);
                }
            };
        }

        @Override
        public void accept(Document doc) throws IOException {
            total++;
            try {
                timed(() -> step.process(doc, out));
            } catch (StepFailure f) {
                throw f; // a later step's, which named itself and the document
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                HeapReserve.releaseFor(e);
                throwIfLaterStepsFailure(e);
                // a writer's failure on one document (before, a 24 KB Jackson message naming no document or file)
                String reason = e instanceof IOException ? FileErrors.describe(e) : StepFailure.reason(e);
                // a message that already names the document (a metadata parse error, say) is not told it twice
                throw new StepFailure(stats.name() + (reason.contains(doc.describe()) ? "" : " failed on " + doc.describe())
                        + ": " + reason, e);
            }
        }

        /**
         * The step's {@code finish}, its failure named with the step: writing its files at the end (a full
         * disk, a merge's unreadable input) said the file but not which step of the stage wrote it.
         */
        void finish() throws IOException {
            try {
                timed(() -> step.finish(out));
            } catch (StepFailure f) {
                throw f; // a later step's, on a document this one passed on as it finished
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                HeapReserve.releaseFor(e);
                throwIfLaterStepsFailure(e);
                String reason = e instanceof Error ? StepFailure.reason(e) : FileErrors.describe(e);
                throw new StepFailure(reason.startsWith(stats.name() + ":") ? reason
                        : stats.name() + " failed as it finished: " + reason, e);
            }
        }

        /** A later step's failure, wrapped by this one (in an UncheckedIOException, say), goes on as it was. */
        private static void throwIfLaterStepsFailure(Throwable e) throws StepFailure {
            if (e.getCause() instanceof StepFailure f) {
                throw f;
            }
        }

        /** Runs an action of this step, charging it its time minus what the steps after it used. */
        void timed(IoAction action) throws IOException {
            long t0 = System.nanoTime();
            long downstreamBefore = next == null ? 0 : next.inclusiveNanos;
            try {
                action.run();
            } finally {
                long dt = System.nanoTime() - t0;
                inclusiveNanos += dt;
                stats.addNanos(dt - (next == null ? 0 : next.inclusiveNanos - downstreamBefore));
            }
        }
    }
}
