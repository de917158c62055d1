package io.sluice.pipeline;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters of one step in one rank: documents in and out, drops per reason, exclusive time, and any
 * counters the step adds. Stats of ranks merge by adding counters.
 */
public final class StepStats {
    private final String name;
    private final Map<String, Long> counters = new TreeMap<>();
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

    public long nanos() {
        return nanos;
    }

    public void addNanos(long n) {
        nanos += n;
    }

    public void mergeFrom(StepStats other) {
        other.counters.forEach(this::add);
        nanos += other.nanos;
    }
}
