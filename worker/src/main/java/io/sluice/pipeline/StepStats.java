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
    private final MetricStats docLen = new MetricStats();
    private final MetricStats docLenTokens = new MetricStats();
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
        Map<String, MetricStats> lengths = new TreeMap<>();
        if (!lengthsIncomplete && docLen.n() > 0) {
            lengths.put(DOC_LEN, docLen);
        }
        if (!lengthsIncomplete && docLenTokens.n() > 0) {
            lengths.put(DOC_LEN_TOKENS, docLenTokens);
        }
        return lengths;
    }

    /**
     * Notes a document the step passed on, as datatrove's {@code update_doc_stats}: its length, and its
     * {@code token_count} metadata (null when it has none). Kept small: it runs for every document at every step,
     * inside each step's compiled code.
     */
    public void addDocumentLengths(int textLength, Object tokenCount) {
        docLen.addPerDocument(textLength, true);
        if (tokenCount != null) {
            addTokenCount(tokenCount);
        }
    }

    private void addTokenCount(Object tokenCount) {
        // datatrove counts a token_count that is truthy: a non-zero number (a NaN or infinite one, which JSON
        // cannot hold, is left out rather than failing the rank)
        if (tokenCount instanceof Number t && t.doubleValue() != 0 && Double.isFinite(t.doubleValue())) {
            docLenTokens.addPerDocument(t.doubleValue(), !(t instanceof Double || t instanceof Float));
        } else if (Boolean.TRUE.equals(tokenCount)) {
            docLenTokens.addPerDocument(1, true); // Python's True is the int 1
        }
    }

    public void mergeLength(String key, MetricStats stats) {
        (key.equals(DOC_LEN) ? docLen : docLenTokens).mergePerDocument(stats);
    }

    public long nanos() {
        return nanos;
    }

    public void addNanos(long n) {
        nanos += n;
    }

    public void mergeFrom(StepStats other) {
        other.counters.forEach(this::add);
        // a rank completed by a version without doc_len: the merged lengths would count only some documents
        lengthsIncomplete |= other.lengthsIncomplete || (other.get("forwarded") > 0 && other.docLen.n() == 0);
        docLen.mergePerDocument(other.docLen);
        docLenTokens.mergePerDocument(other.docLenTokens);
        nanos += other.nanos;
    }
}
