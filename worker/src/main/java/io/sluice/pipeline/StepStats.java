package io.sluice.pipeline;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters of one step in one rank: documents in and out, drops per reason, exclusive time, and any
 * counters the step adds; and datatrove's {@code doc_len} and {@code doc_len_tokens}, the lengths of the
 * documents it passed on. Stats of ranks merge by adding counters and merging the lengths' MetricStats.
 */
public final class StepStats {
    /** The characters (code points) of each document passed on. */
    public static final String DOC_LEN = "doc_len";
    /** The {@code token_count} metadata of each document passed on that has one. */
    public static final String DOC_LEN_TOKENS = "doc_len_tokens";

    private final String name;
    private final Map<String, Long> counters = new TreeMap<>();
    private final Map<String, MetricStats> lengths = new TreeMap<>();
    /** Whether some merged rank passed documents on without noting their lengths: then none are kept. */
    private boolean lengthsIncomplete;
    private long nanos;

    public StepStats(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public void add(String counter, long delta) {
        counters.merge(counter, delta, Long::sum);
    }

    public void increment(String counter) {
        add(counter, 1);
    }

    public long get(String counter) {
        return counters.getOrDefault(counter, 0L);
    }

    public Map<String, Long> counters() {
        return counters;
    }

    /** {@link #DOC_LEN} and {@link #DOC_LEN_TOKENS}, those with a document. */
    public Map<String, MetricStats> lengths() {
        return lengths;
    }

    /** Notes a document the step passed on, as datatrove's {@code update_doc_stats}. */
    public void addDocumentLengths(int textLength, Object tokenCount) {
        lengths.computeIfAbsent(DOC_LEN, k -> new MetricStats()).addPerDocument(textLength, true);
        // datatrove counts a token_count that is truthy: a non-zero number (a NaN or infinite one, which JSON
        // cannot hold, is left out rather than failing the rank)
        if (tokenCount instanceof Number t && t.doubleValue() != 0 && Double.isFinite(t.doubleValue())) {
            boolean integer = !(t instanceof Double || t instanceof Float);
            lengths.computeIfAbsent(DOC_LEN_TOKENS, k -> new MetricStats()).addPerDocument(t.doubleValue(), integer);
        }
    }

    public void mergeLength(String key, MetricStats stats) {
        if (!lengthsIncomplete) {
            lengths.computeIfAbsent(key, k -> new MetricStats()).merge(stats);
        }
    }

    public long nanos() {
        return nanos;
    }

    public void addNanos(long n) {
        nanos += n;
    }

    public void mergeFrom(StepStats other) {
        other.counters.forEach(this::add);
        if (other.lengthsIncomplete || (other.get("forwarded") > 0 && !other.lengths.containsKey(DOC_LEN))) {
            // a rank completed by a version without doc_len: the merged lengths would count only some documents
            lengthsIncomplete = true;
            lengths.clear();
        }
        other.lengths.forEach(this::mergeLength);
        nanos += other.nanos;
    }
}
