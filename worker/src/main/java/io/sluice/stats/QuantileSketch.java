package io.sluice.stats;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.io.PyJson;

/**
 * A mergeable quantile sketch with relative value accuracy (the DDSketch idea: logarithmic buckets).
 *
 * <p>A positive value v goes to bucket {@code ceil(log_gamma v)} with {@code gamma = (1+a)/(1-a)}, and
 * the bucket is represented by a value within a factor {@code 1 +- a} of every value in it; zero has
 * its own exact bucket, negative values mirror positive ones. A quantile is answered at its exact rank
 * (no rank error: counts are exact), with the VALUE off by at most {@link #RELATIVE_ACCURACY} (1%)
 * relative, and clamped to the exact min and max. How many values equal the min and the max is kept
 * too, so a quantile among them is exact: ratios are often exactly 0 or 1, and a p99 of 0.99 for a
 * metric whose top tenth is 1.0 misleads, even within 1%.
 *
 * <p>Why this and not KLL: bucket counts add, so merging the sketches of any split of the data, in any
 * order, gives exactly the sketch of one pass, and a re-run writes byte-identical files (KLL's
 * compactions depend on order and on random coin flips). Memory is bounded: above
 * {@link #MAX_BUCKETS} buckets per sign the smallest-magnitude ones are folded together (a rule that
 * depends only on the largest index seen, so it too is order-independent). The 1% holds while the magnitudes of a
 * sign span at most {@code gamma^2047}, about 6e17; the stats steps' values span far less (length: 1 to 1e9).
 */
public final class QuantileSketch {
    public static final double RELATIVE_ACCURACY = 0.01;
    static final int MAX_BUCKETS = 2048;
    private static final double GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
    private static final double LOG_GAMMA = StrictMath.log(GAMMA);

    private final Buckets positive = new Buckets();
    private final Buckets negative = new Buckets();
    private long zeroCount;
    private long count;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private long minCount;
    private long maxCount;

    public void add(double v) {
        if (Double.isNaN(v)) {
            throw new IllegalArgumentException("NaN has no quantile");
        }
        if (Double.isInfinite(v)) {
            // it has no bucket (it failed on an array index); the stats steps give finite values only
            throw new IllegalArgumentException(v + " has no quantile");
        }
        v += 0.0; // -0.0 as 0.0: "min" was -0.0 or 0.0 by the order they came in, and merged files of two splits differed
        count++;
        if (v < min) {
            min = v;
            minCount = 0;
        }
        if (v == min) {
            minCount++;
        }
        if (v > max) {
            max = v;
            maxCount = 0;
        }
        if (v == max) {
            maxCount++;
        }
        if (v > 0) {
            positive.add(index(v), 1);
        } else if (v < 0) {
            negative.add(index(-v), 1);
        } else {
            zeroCount++;
        }
    }

    public void merge(QuantileSketch other) {
        count += other.count;
        zeroCount += other.zeroCount;
        minCount = other.min < min ? other.minCount : other.min == min ? minCount + other.minCount : minCount;
        maxCount = other.max > max ? other.maxCount : other.max == max ? maxCount + other.maxCount : maxCount;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        positive.addAll(other.positive);
        negative.addAll(other.negative);
    }

    public long count() {
        return count;
    }

    /**
     * The value at rank {@code floor(q * (count - 1))} of the sorted values, within 1% relative; NaN
     * when the sketch is empty.
     */
    public double quantile(double q) {
        return quantile(q, false);
    }

    /**
     * {@link #quantile(double)}, for values known to be integers ({@code integers}): where the answer's bucket holds
     * one integer only (all below 50, some up to 100), that integer, exactly. Rounding the estimate instead could
     * leave the 1% (a p99 of 58 estimated as 58.56 said 59, a value no document had).
     */
    public double quantile(double q, boolean integers) {
        if (count == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.floor(q * (count - 1));
        if (rank < minCount) {
            return min;
        }
        if (rank >= count - maxCount) {
            return max;
        }
        long seen = 0;
        for (int i = negative.hi; i >= negative.lo; i--) {
            seen += negative.count(i);
            if (seen > rank) {
                double k = integers ? onlyInteger(negative, i) : Double.NaN;
                return Double.isNaN(k) ? clamp(-value(i)) : -k;
            }
        }
        seen += zeroCount;
        if (seen > rank) {
            return 0.0;
        }
        for (int i = positive.lo; i <= positive.hi; i++) {
            seen += positive.count(i);
            if (seen > rank) {
                double k = integers ? onlyInteger(positive, i) : Double.NaN;
                return Double.isNaN(k) ? clamp(value(i)) : k;
            }
        }
        return max;
    }

    private double clamp(double v) {
        return Math.max(min, Math.min(max, v));
    }

    /**
     * The one integer magnitude of bucket {@code i}, NaN when it holds several or none, or may hold folded counts (its
     * lowest bucket, once the span reached {@link #MAX_BUCKETS}). The bucket is an interval: an integer in it whose
     * neighbours are outside is the only one.
     */
    private static double onlyInteger(Buckets buckets, int i) {
        if (i == buckets.lo && buckets.hi - buckets.lo >= MAX_BUCKETS - 1) {
            return Double.NaN;
        }
        double k = Math.rint(value(i));
        return k >= 1 && index(k) == i && index(k - 1) != i && index(k + 1) != i ? k : Double.NaN;
    }

    private static int index(double v) {
        return (int) Math.ceil(StrictMath.log(v) / LOG_GAMMA);
    }

    /** A value within a factor 1 +- a of every value in bucket i, i.e. of (gamma^(i-1), gamma^i]. */
    private static double value(int i) {
        return 2 * StrictMath.pow(GAMMA, i) / (GAMMA + 1);
    }

    /**
     * The bucket counts of one sign, by index, in a dense window around the indices in use: a value
     * added per document and stat is an array increment, not a tree update with boxed keys. At most
     * {@link #MAX_BUCKETS} indices are in use: when a new largest index pushes the span beyond, the
     * counts below {@code largest - MAX_BUCKETS + 1} are folded into that bucket.
     */
    private static final class Buckets {
        private long[] counts = new long[0];
        /** The index of {@code counts[0]}. */
        private int offset;
        /** The range of indices added so far (empty while lo > hi). */
        private int lo = 0;
        private int hi = -1;

        boolean isEmpty() {
            return lo > hi;
        }

        long count(int index) {
            return counts[index - offset];
        }

        void add(int index, long c) {
            if (isEmpty()) {
                reframe(index, index);
                lo = hi = index;
                counts[index - offset] += c;
                return;
            }
            int newHi = Math.max(hi, index);
            int threshold = newHi - MAX_BUCKETS + 1;
            long folded = 0;
            for (int i = lo; i <= Math.min(hi, threshold - 1); i++) {
                folded += counts[i - offset];
                counts[i - offset] = 0;
            }
            int newLo = Math.max(Math.min(lo, index), threshold);
            reframe(newLo, newHi);
            lo = newLo;
            hi = newHi;
            counts[Math.max(index, threshold) - offset] += c;
            if (folded != 0) {
                counts[threshold - offset] += folded; // lo was below threshold, so threshold is now lo
            }
        }

        void addAll(Buckets other) {
            for (int i = other.lo; i <= other.hi; i++) {
                long c = other.count(i);
                if (c != 0) {
                    add(i, c);
                }
            }
        }

        /** Makes the window cover [from, to], keeping the counts of the live indices in it. */
        private void reframe(int from, int to) {
            if (from >= offset && to < offset + counts.length) {
                return;
            }
            int span = to - from + 1;
            long[] next = new long[Math.max(64, 2 * span)];
            int nextOffset = from - (next.length - span) / 2;
            for (int i = Math.max(lo, from); i <= Math.min(hi, to); i++) {
                next[i - nextOffset] = counts[i - offset];
            }
            counts = next;
            offset = nextOffset;
        }

        void appendJson(StringBuilder sb, String name) {
            sb.append(", \"").append(name).append("\": [");
            boolean first = true;
            for (int i = lo; i <= hi; i++) {
                long c = count(i);
                if (c != 0) {
                    sb.append(first ? "" : ", ").append('[').append(i).append(", ").append(c).append(']');
                    first = false;
                }
            }
            sb.append(']');
        }
    }

    /**
     * A compact JSON object: {@code {"relative_accuracy", "count", "zero_count", "min", "max", "min_count",
     * "max_count", "positive": [[index, count], ...], "negative": [...]}}.
     */
    public String toJson() {
        StringBuilder sb = new StringBuilder(256);
        sb.append("{\"relative_accuracy\": ").append(PyJson.floatRepr(RELATIVE_ACCURACY));
        sb.append(", \"count\": ").append(count);
        sb.append(", \"zero_count\": ").append(zeroCount);
        if (count > 0) {
            sb.append(", \"min\": ").append(PyJson.floatRepr(min));
            sb.append(", \"max\": ").append(PyJson.floatRepr(max));
            sb.append(", \"min_count\": ").append(minCount);
            sb.append(", \"max_count\": ").append(maxCount);
        }
        positive.appendJson(sb, "positive");
        negative.appendJson(sb, "negative");
        return sb.append('}').toString();
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
            // absent in sketches written before they were kept: no value is then known to equal min or max
            s.minCount = node.has("min_count") ? requireLong(node, "min_count") : 0;
            s.maxCount = node.has("max_count") ? requireLong(node, "max_count") : 0;
        }
        readBuckets(node, "positive", s.positive);
        readBuckets(node, "negative", s.negative);
        return s;
    }

    private static void readBuckets(JsonNode node, String name, Buckets into) {
        JsonNode arr = node.get(name);
        if (arr == null || !arr.isArray()) {
            throw new IllegalArgumentException("quantile sketch needs an array '" + name + "'");
        }
        for (JsonNode pair : arr) {
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isInt() || !pair.get(1).isIntegralNumber()
                    || pair.get(1).asLong() < 1) {
                throw new IllegalArgumentException("'" + name + "' entries must be [index, count] with a positive count");
            }
            into.add(pair.get(0).asInt(), pair.get(1).asLong());
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
