package io.sluice.stats;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A mergeable quantile sketch with relative value accuracy (the DDSketch idea: logarithmic buckets).
 *
 * <p>A positive value v goes to bucket {@code ceil(log_gamma v)} with {@code gamma = (1+a)/(1-a)}, and
 * the bucket is represented by a value within a factor {@code 1 +- a} of every value in it; zero has
 * its own exact bucket, negative values mirror positive ones. A quantile is answered at its exact rank
 * (no rank error: counts are exact), with the VALUE off by at most {@link #RELATIVE_ACCURACY} (1%)
 * relative, and clamped to the exact min and max.
 *
 * <p>Why this and not KLL: bucket counts add, so merging the sketches of any split of the data, in any
 * order, gives exactly the sketch of one pass, and a re-run writes byte-identical files (KLL's
 * compactions depend on order and on random coin flips). Memory is bounded: above
 * {@link #MAX_BUCKETS} buckets per sign the smallest-magnitude ones are folded together (a rule that
 * depends only on the largest index seen, so it too is order-independent).
 */
public final class QuantileSketch {
    public static final double RELATIVE_ACCURACY = 0.01;
    static final int MAX_BUCKETS = 2048;
    private static final double GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
    private static final double LOG_GAMMA = StrictMath.log(GAMMA);

    private final TreeMap<Integer, Long> positive = new TreeMap<>();
    private final TreeMap<Integer, Long> negative = new TreeMap<>();
    private long zeroCount;
    private long count;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    public void add(double v) {
        if (Double.isNaN(v)) {
            throw new IllegalArgumentException("NaN has no quantile");
        }
        count++;
        min = Math.min(min, v);
        max = Math.max(max, v);
        if (v > 0) {
            addTo(positive, index(v), 1);
        } else if (v < 0) {
            addTo(negative, index(-v), 1);
        } else {
            zeroCount++;
        }
    }

    public void merge(QuantileSketch other) {
        count += other.count;
        zeroCount += other.zeroCount;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        other.positive.forEach((i, c) -> addTo(positive, i, c));
        other.negative.forEach((i, c) -> addTo(negative, i, c));
    }

    public long count() {
        return count;
    }

    /**
     * The value at rank {@code floor(q * (count - 1))} of the sorted values, within 1% relative; NaN
     * when the sketch is empty.
     */
    public double quantile(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.floor(q * (count - 1));
        long seen = 0;
        for (Map.Entry<Integer, Long> e : negative.descendingMap().entrySet()) {
            seen += e.getValue();
            if (seen > rank) {
                return clamp(-value(e.getKey()));
            }
        }
        seen += zeroCount;
        if (seen > rank) {
            return 0.0;
        }
        for (Map.Entry<Integer, Long> e : positive.entrySet()) {
            seen += e.getValue();
            if (seen > rank) {
                return clamp(value(e.getKey()));
            }
        }
        return max;
    }

    private double clamp(double v) {
        return Math.max(min, Math.min(max, v));
    }

    private static int index(double v) {
        return (int) Math.ceil(StrictMath.log(v) / LOG_GAMMA);
    }

    /** A value within a factor 1 +- a of every value in bucket i, i.e. of (gamma^(i-1), gamma^i]. */
    private static double value(int i) {
        return 2 * StrictMath.pow(GAMMA, i) / (GAMMA + 1);
    }

    private static void addTo(TreeMap<Integer, Long> buckets, int index, long c) {
        buckets.merge(index, c, Long::sum);
        int threshold = buckets.lastKey() - MAX_BUCKETS + 1;
        if (buckets.firstKey() < threshold) {
            NavigableMap<Integer, Long> low = buckets.headMap(threshold, false);
            long folded = 0;
            for (long x : low.values()) {
                folded += x;
            }
            low.clear();
            buckets.merge(threshold, folded, Long::sum);
        }
    }

    /** A compact JSON object: {@code {"relative_accuracy", "count", "zero_count", "min", "max", "positive": [[index, count], ...], "negative": [...]}}. */
    public String toJson() {
        StringBuilder sb = new StringBuilder(64 + 16 * (positive.size() + negative.size()));
        sb.append("{\"relative_accuracy\": ").append(PyJson.floatRepr(RELATIVE_ACCURACY));
        sb.append(", \"count\": ").append(count);
        sb.append(", \"zero_count\": ").append(zeroCount);
        if (count > 0) {
            sb.append(", \"min\": ").append(PyJson.floatRepr(min));
            sb.append(", \"max\": ").append(PyJson.floatRepr(max));
        }
        appendBuckets(sb, "positive", positive);
        appendBuckets(sb, "negative", negative);
        return sb.append('}').toString();
    }

    private static void appendBuckets(StringBuilder sb, String name, TreeMap<Integer, Long> buckets) {
        sb.append(", \"").append(name).append("\": [");
        boolean first = true;
        for (Map.Entry<Integer, Long> e : buckets.entrySet()) {
            sb.append(first ? "" : ", ").append('[').append(e.getKey()).append(", ").append(e.getValue()).append(']');
            first = false;
        }
        sb.append(']');
    }

    /** @throws IllegalArgumentException on anything {@link #toJson()} would not write */
    public static QuantileSketch fromJson(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("a quantile sketch must be an object");
        }
        JsonNode acc = node.get("relative_accuracy");
        if (acc == null || acc.asDouble() != RELATIVE_ACCURACY) {
            throw new IllegalArgumentException("quantile sketch relative_accuracy must be " + RELATIVE_ACCURACY);
        }
        QuantileSketch s = new QuantileSketch();
        s.count = requireLong(node, "count");
        s.zeroCount = requireLong(node, "zero_count");
        if (s.count > 0) {
            s.min = requireNumber(node, "min");
            s.max = requireNumber(node, "max");
        }
        readBuckets(node, "positive", s.positive);
        readBuckets(node, "negative", s.negative);
        return s;
    }

    private static void readBuckets(JsonNode node, String name, TreeMap<Integer, Long> into) {
        JsonNode arr = node.get(name);
        if (arr == null || !arr.isArray()) {
            throw new IllegalArgumentException("quantile sketch needs an array '" + name + "'");
        }
        for (JsonNode pair : arr) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isInt() || !pair.get(1).isIntegralNumber()) {
                throw new IllegalArgumentException("'" + name + "' entries must be [index, count]");
            }
            addTo(into, pair.get(0).asInt(), pair.get(1).asLong());
        }
    }

    private static long requireLong(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("quantile sketch needs an integer '" + key + "'");
        }
        return v.asLong();
    }

    private static double requireNumber(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException("quantile sketch needs a number '" + key + "'");
        }
        return v.asDouble();
    }
}
