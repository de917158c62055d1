package io.sluice.stats;

import io.sluice.io.PyJson;
import io.sluice.pipeline.MetricStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One stat's histogram group: per bin (the value rounded as datatrove's {@code str(round(value, 3))}),
 * the document count, the characters and, when documents carry {@code token_count}, the tokens.
 *
 * <p>Bins are found by the rounded value's 64 bits in an open-addressing table, and their key strings
 * are made once, when the files are written: each document adds to one bin of every stat, and making
 * the key string and looking up three string-keyed maps per stat and document cost 6-8% of a stats job.
 * Two rounded values give the same key string exactly when their bits are equal, so the bins are
 * datatrove's. They keep first-seen order, the order of the dict datatrove writes.
 */
final class HistogramBins {
    private final boolean integral;
    /** Slot + 1 per table position, 0 when free. */
    private int[] table = new int[64];
    private long[] bitsBySlot = new long[32];
    /**
     * The document count per slot: a count rather than a MetricStats of ones, which every document of
     * every stat updated with two divisions; {@link MetricStats#ofOnes} gives the same numbers.
     */
    private long[] countBySlot = new long[32];
    private int slots;
    private final List<MetricStats> chars = new ArrayList<>();
    private final List<MetricStats> tokens = new ArrayList<>();
    /** The slots in the order documents with a token count first reached them (the tokens dict's order). */
    private final List<Integer> tokenOrder = new ArrayList<>();

    /** @param integral whether the stat is an integer: its bits are a long, else a double's */
    HistogramBins(boolean integral) {
        this.integral = integral;
    }

    /**
     * Adds one document to the bin of {@code keyBits}: the rounded value as a long for an integral stat,
     * else {@link Double#doubleToLongBits} of the rounded double; {@code tokenCount} may be null.
     */
    void add(long keyBits, long charCount, Number tokenCount) {
        int slot = slot(keyBits);
        countBySlot[slot]++;
        chars.get(slot).add(charCount);
        if (tokenCount != null) {
            MetricStats t = tokens.get(slot);
            if (t.n() == 0) {
                tokenOrder.add(slot);
            }
            if (tokenCount instanceof Long || tokenCount instanceof Integer) {
                t.add(tokenCount.longValue());
            } else {
                t.add(tokenCount.doubleValue()); // a float, or an int past a long's range
            }
        }
    }

    private int slot(long bits) {
        int mask = table.length - 1;
        long m = bits * 0x9E3779B97F4A7C15L;
        int pos = (int) (m >>> 40) & mask;
        while (table[pos] != 0) {
            int slot = table[pos] - 1;
            if (bitsBySlot[slot] == bits) {
                return slot;
            }
            pos = (pos + 1) & mask;
        }
        int slot = slots++;
        if (slot == bitsBySlot.length) {
            bitsBySlot = Arrays.copyOf(bitsBySlot, 2 * slot);
            countBySlot = Arrays.copyOf(countBySlot, 2 * slot);
        }
        bitsBySlot[slot] = bits;
        chars.add(new MetricStats());
        tokens.add(new MetricStats());
        table[pos] = slot + 1;
        if (2 * (slot + 1) > table.length) {
            rehash();
        }
        return slot;
    }

    private void rehash() {
        table = new int[table.length * 2];
        int mask = table.length - 1;
        for (int slot = 0; slot < slots; slot++) {
            long m = bitsBySlot[slot] * 0x9E3779B97F4A7C15L;
            int pos = (int) (m >>> 40) & mask;
            while (table[pos] != 0) {
                pos = (pos + 1) & mask;
            }
            table[pos] = slot + 1;
        }
    }

    MetricStatsDict counts() {
        MetricStatsDict d = new MetricStatsDict();
        for (int slot = 0; slot < slots; slot++) {
            d.put(key(slot), MetricStats.ofOnes(countBySlot[slot]));
        }
        return d;
    }

    MetricStatsDict chars() {
        MetricStatsDict d = new MetricStatsDict();
        for (int slot = 0; slot < slots; slot++) {
            d.put(key(slot), chars.get(slot));
        }
        return d;
    }

    /** The tokens per bin, of the bins documents with a token count reached; empty when none had one. */
    MetricStatsDict tokens() {
        MetricStatsDict d = new MetricStatsDict();
        for (int slot : tokenOrder) {
            d.put(key(slot), tokens.get(slot));
        }
        return d;
    }

    private String key(int slot) {
        long bits = bitsBySlot[slot];
        return integral ? Long.toString(bits) : PyJson.floatRepr(Double.longBitsToDouble(bits));
    }
}
