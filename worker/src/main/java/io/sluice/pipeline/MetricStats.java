package io.sluice.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.io.PyJson;

/**
 * Running summary of one metric: count, total, mean, sum of squared deviations (M2), min, max.
 *
 * <p>Every added value is merged as a one-sample MetricStats with Chan et al.'s parallel formula, in
 * the same operation order as datatrove's {@code MetricStats.__add__}, so a one-rank run reproduces
 * datatrove's numbers to the last bit, and merging the results of any split of the data equals one
 * pass over all of it (up to floating-point summation order).
 *
 * <p>{@code integral} mirrors Python's int/float distinction: it stays true while only integers were
 * added, and then the total prints without a fraction ("12", not "12.0"). Min and max keep the type of the
 * value they are, as Python's {@code min} and {@code max} do (the first of equal values), so that mixed
 * {@code token_count}s of 3 and 3.5 give a min of 3 and a max of 3.5, as datatrove writes them.
 */
public final class MetricStats {
    /** datatrove's default unit; every value added by a stats step carries "task" instead. */
    static final String UNIT_DOC = "doc";
    static final String UNIT_TASK = "task";

    private long n;
    private double total;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private boolean integral = true;
    private boolean minIntegral = true;
    private boolean maxIntegral = true;
    private String unit = UNIT_DOC;

    public MetricStats() {
    }

    private MetricStats(long n, double total, double mean, double m2, double min, double max, boolean integral,
                        String unit) {
        this(n, total, mean, m2, min, max, integral, integral, integral, unit);
    }

    private MetricStats(long n, double total, double mean, double m2, double min, double max, boolean integral,
                        boolean minIntegral, boolean maxIntegral, String unit) {
        this.n = n;
        this.total = total;
        this.mean = mean;
        this.m2 = m2;
        this.min = min;
        this.max = max;
        this.integral = integral;
        this.minIntegral = minIntegral;
        this.maxIntegral = maxIntegral;
        this.unit = unit;
    }

    /**
     * The stats of {@code count} integer values of 1, as adding 1 that many times gives them: every partial
     * mean is exactly 1, so M2 stays 0 (a histogram bin's document count).
     */
    public static MetricStats ofOnes(long count) {
        return count == 0 ? new MetricStats() : new MetricStats(count, count, 1.0, 0.0, 1, 1, true, UNIT_TASK);
    }

    /** Adds one floating-point value (a Python float). */
    public void add(double x) {
        integral = false;
        addSample(x, false);
    }

    /** Adds one integer value (a Python int). */
    public void add(long x) {
        addSample(x, true);
    }

    /**
     * Adds one value with datatrove's unit "doc" ({@code stat_update(..., unit="doc")}, as its steps count
     * {@code doc_len}), which {@code to_dict} leaves out; {@link #add} gives the unit of the stats blocks' values.
     */
    public void addPerDocument(double x, boolean isInteger) {
        integral &= isInteger;
        addSample(x, isInteger);
        unit = UNIT_DOC;
    }

    /**
     * {@link #merge}, keeping the unit "doc": a rank's one document of length 1 is written as datatrove writes it,
     * a bare 1, which reads back as a value of unit "task".
     */
    void mergePerDocument(MetricStats other) {
        merge(other);
        unit = UNIT_DOC;
    }

    private void addSample(double x, boolean isInteger) {
        // merge(one sample with n = 1, mean = x, M2 = 0), written out to avoid an allocation
        long nb = n + 1;
        double newMean = (n * mean + x) / nb;
        double delta = mean - x;
        m2 = m2 + 0.0 + (delta * delta * n * 1) / nb;
        mean = newMean;
        n = nb;
        total += x;
        takeExtremes(x, isInteger, x, isInteger);
        unit = UNIT_DOC.equals(unit) ? UNIT_TASK : unit;
    }

    /** Folds {@code other} into this one (Chan et al.'s pairwise formula). */
    public void merge(MetricStats other) {
        long nb = n + other.n;
        double newMean = 0.0;
        double newM2 = 0.0;
        if (nb > 0) {
            newMean = (n * mean + other.n * other.mean) / nb;
            double delta = mean - other.mean;
            newM2 = m2 + other.m2 + (delta * delta * n * other.n) / nb;
        }
        n = nb;
        mean = newMean;
        m2 = newM2;
        total += other.total;
        takeExtremes(other.min, other.minIntegral, other.max, other.maxIntegral);
        integral &= other.integral;
        unit = !UNIT_DOC.equals(unit) ? unit : other.unit;
    }

    /** Python's {@code min(self.min, x)} and {@code max(self.max, y)}: a value replaces an equal one only if smaller (larger). */
    private void takeExtremes(double low, boolean lowIntegral, double high, boolean highIntegral) {
        if (low < min) {
            min = low;
            minIntegral = lowIntegral;
        }
        if (high > max) {
            max = high;
            maxIntegral = highIntegral;
        }
    }

    public MetricStats copy() {
        return new MetricStats(n, total, mean, m2, min, max, integral, minIntegral, maxIntegral, unit);
    }

    public long n() {
        return n;
    }

    public double total() {
        return total;
    }

    public double mean() {
        return mean;
    }

    /** Sample variance (divided by n - 1); 0 for fewer than two values. */
    public double variance() {
        return n > 1 ? m2 / (n - 1) : 0.0;
    }

    /** 0 for a variance a rounding below 0 (-2.2e-16, as a file may hold), not the NaN of its square root. */
    public double stdDev() {
        return Math.sqrt(Math.max(0, variance()));
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    public boolean integral() {
        return integral;
    }

    /** datatrove's {@code MetricStats.to_dict()} as JSON text. */
    public String toJson() {
        StringBuilder sb = new StringBuilder(160);
        appendJson(sb, false);
        return sb.toString();
    }

    /**
     * Appends datatrove's {@code to_dict()} form. With {@code lossless}, adds what datatrove's form drops
     * but {@code from_dict} would then guess wrong: the count {@code n} of an all-zero metric (which
     * datatrove writes as a bare {@code 0}, read back as one sample) and of a single sample. The result
     * is still a dict datatrove reads, and reads exactly.
     */
    public void appendJson(StringBuilder sb, boolean lossless) {
        if (total == 0 && !(lossless && n > 0)) {
            sb.append('0');
            return;
        }
        boolean spread = mean != max || mean != min;
        boolean withMean = mean != 1 || spread;
        boolean withN = n > 1 && n != total;
        if (lossless && !withN) {
            // from_dict: n = data.get("n", total if mean != 1 else 1)
            double guessed = withMean && mean != 1 ? total : 1;
            withN = guessed != n;
        }
        boolean withUnit = !UNIT_DOC.equals(unit);
        if (!withN && !withMean && !withUnit) {
            sb.append(PyJson.number(total, integral));
            return;
        }
        sb.append("{\"total\": ").append(PyJson.number(total, integral));
        if (withN) {
            sb.append(", \"n\": ").append(n);
        }
        if (withMean) {
            sb.append(", \"mean\": ").append(PyJson.floatRepr(mean));
        }
        if (spread) {
            double variance = variance();
            sb.append(", \"variance\": ").append(PyJson.floatRepr(variance));
            sb.append(", \"std_dev\": ").append(PyJson.floatRepr(Math.sqrt(variance)));
            sb.append(", \"min\": ").append(PyJson.number(min, minIntegral));
            sb.append(", \"max\": ").append(PyJson.number(max, maxIntegral));
        }
        if (withUnit) {
            sb.append(", \"unit\": ");
            PyJson.appendString(sb, unit);
        }
        sb.append('}');
    }

    /**
     * Reads datatrove's {@code to_dict()} form back: a dict, or a bare number (one sample of that value,
     * as datatrove's {@code from_dict} reads it; an all-zero metric written by datatrove thus loses its count).
     * NaN and the infinities are read as Python reads them: both tools write them once values pass about 1e154
     * (the variance overflows to Infinity, then NaN), and refusing them left such a job's merge failing on every run.
     *
     * @throws IllegalArgumentException when the node is neither
     */
    public static MetricStats fromJson(JsonNode node) {
        if (node.isNumber()) {
            double v = node.asDouble();
            return new MetricStats(1, v, v, 0.0, v, v, node.isIntegralNumber(), UNIT_TASK);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("a metric must be a number or an object, got " + node.getNodeType());
        }
        JsonNode totalNode = node.get("total");
        if (totalNode == null || !totalNode.isNumber()) {
            throw new IllegalArgumentException("a metric object needs a numeric 'total'");
        }
        double total = totalNode.asDouble();
        double mean = numberOr(node, "mean", 1);
        // datatrove's to_dict leaves n out when it equals total or is 1; then total / mean gives it back.
        // (datatrove's own from_dict guesses total or 1 instead, which is wrong for single samples.)
        long n;
        if (node.has("n")) {
            double nValue = numberOr(node, "n", 1);
            if (nValue < 0 || nValue != Math.rint(nValue) || nValue >= 0x1p63) {
                throw new IllegalArgumentException("'n' must be a count (an integer >= 0), got "
                        + (Double.isFinite(nValue) ? node.get("n").toString() : PyJson.floatRepr(nValue))); // NaN, not "NaN"
            }
            n = (long) nValue;
            if (n == 0) {
                if (total != 0) {
                    throw new IllegalArgumentException("'n' is 0 but 'total' is " + totalNode);
                }
                return new MetricStats();
            }
        } else {
            double guess = mean == 0 ? 1 : total / mean;
            n = Double.isFinite(guess) ? Math.max(1, Math.round(guess)) : 1; // NaN or infinite values: one sample
        }
        double min = numberOr(node, "min", mean);
        double max = numberOr(node, "max", mean);
        double m2 = numberOr(node, "variance", 0.0) * (n - 1);
        JsonNode unitNode = node.get("unit");
        String unit = unitNode == null ? UNIT_DOC : unitNode.asText();
        boolean integral = totalNode.isIntegralNumber();
        // without min and max, datatrove's from_dict takes the mean: a float whenever written, the int 1 when not
        boolean meanIntegral = !node.has("mean");
        return new MetricStats(n, total, mean, m2, min, max, integral, integralOr(node, "min", meanIntegral),
                integralOr(node, "max", meanIntegral), unit);
    }

    private static boolean integralOr(JsonNode node, String key, boolean dflt) {
        JsonNode v = node.get(key);
        return v == null ? dflt : v.isIntegralNumber();
    }

    private static double numberOr(JsonNode node, String key, double dflt) {
        JsonNode v = node.get(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException("'" + key + "' must be a number, got " + v.getNodeType());
        }
        return v.asDouble();
    }

    @Override
    public String toString() {
        return toJson();
    }
}
