package io.sluice.stats;

import static io.sluice.stats.StatsReport.esc;
import static io.sluice.stats.StatsReport.fmt;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One metric's figure on the report: the documents per value of its merged histogram group, drawn as an inline SVG.
 *
 * <p>What it does so that the picture is read right:
 * <ul>
 * <li>Bins are whole multiples of the values' own grid (whole numbers, or the 0.001 the histogram group rounds to):
 *     bins narrower than the grid left most of them empty, a comb.</li>
 * <li>Lengths and counts of 1,000 and more (length, n_words, n_lines) are drawn on a log axis over their whole range:
 *     on a linear one the first bar held every document under 1,000 characters, where filters cut. Bars there are as
 *     tall as their documents per width, as the bins at the low end span more than one bin's width of the axis.</li>
 * <li>Other metrics are drawn up to their p99; the documents above it are a bar of their own to the right, told
 *     apart, rather than piled into the last bin as a peak the data does not have.</li>
 * <li>A metric that is 0 for most documents says how many and draws the others; one with a single value says it.</li>
 * </ul>
 */
final class HistogramFigure {
    private static final int BINS = 40;
    private static final int WIDTH = 360;
    private static final int HEIGHT = 130;
    private static final int PLOT_HEIGHT = 100;
    /** Room on the right for the bar of the documents above p99. */
    private static final int OVERFLOW_ROOM = 34;
    /** From this largest value on, a metric of values that are not negative is drawn on a log axis. */
    private static final double LOG_FROM = 1000;

    private HistogramFigure() {
    }

    /** {@code points}: {value, documents} by value; {@code p99}: the metric's p99, NaN when unknown. */
    static String html(List<double[]> points, double p99) {
        // inf and nan have no place on an axis (an infinite end made the ticks' loop endless); they are told, not drawn
        List<double[]> finite = points.stream().filter(p -> Double.isFinite(p[0])).toList();
        if (finite.size() < points.size()) {
            long notDrawn = StatsReport.documents(points) - StatsReport.documents(finite);
            String told = "<p class=\"note\">" + (notDrawn == 1 ? "1 document has" : fmt(notDrawn) + " documents have")
                    + " a value of inf or nan, not drawn</p>";
            return told + (finite.isEmpty() ? "" : html(finite, Double.isFinite(p99) ? p99 : Double.NaN));
        }
        if (points.isEmpty()) {
            return "<p class=\"note\">empty</p>";
        }
        long docs = StatsReport.documents(points);
        if (points.size() == 1) {
            return "<p class=\"note\">" + (docs == 1 ? "the one document: " : "all " + fmt(docs) + " documents: ")
                    + esc(fmt(points.get(0)[0])) + "</p>";
        }
        StringBuilder note = new StringBuilder();
        List<double[]> drawn = points;
        String p99Name = "p99";
        if (points.get(0)[0] == 0 && points.get(0)[1] * 2 >= docs) {
            long zeros = (long) points.get(0)[1];
            drawn = points.subList(1, points.size());
            note.append("<p class=\"note\">").append(fmt(zeros)).append(" documents (").append(percent(zeros, docs))
                    .append(") are 0; ");
            if (drawn.size() == 1) {
                return note.append(drawn.get(0)[1] == 1 ? "the other one is " : "the other " + fmt(drawn.get(0)[1]) + " are ")
                        .append(esc(fmt(drawn.get(0)[0]))).append("</p>").toString();
            }
            note.append("the bars show the other ").append(fmt(docs - zeros)).append("</p>");
            // the metric's own p99 is 0 or near it, and would clip these documents to a few bins
            p99 = StatsReport.histogramQuantiles(drawn)[2];
            p99Name = "p99 of the non-zero values"; // not the summary table's p99, which counts the zeros
        }
        return note.append(new Layout(drawn, p99, p99Name).svg()).toString();
    }

    private static String percent(double part, double whole) {
        double pct = 100 * part / whole;
        return (pct >= 99.95 && part < whole ? String.format(Locale.ROOT, "%.2f", pct) : String.format(Locale.ROOT, "%.1f", pct)) + "%";
    }

    /**
     * The grid of the values: the largest 10^-d (d from -15 to 6) of which each is a whole multiple, or 0 for values
     * on none (unrounded, or in exponent form). A negative histogram_round_digits keys tens or hundreds: on a grid of
     * 1 they were drawn as a comb, each bin claiming values that cannot occur.
     */
    static double grid(List<double[]> points) {
        for (int d = -15; d <= 6; d++) {
            double scale = Math.pow(10, d);
            boolean all = true;
            for (double[] p : points) {
                double u = p[0] * scale;
                // a coarse grid takes whole numbers that are exact multiples of it (at 1e15, 790 is "near" 0 steps); a
                // fine one allows the float noise of rounded decimals (0.30000000000000004)
                boolean off = d < 0 ? p[0] != Math.rint(p[0]) || Math.abs(p[0]) > 1e15 || p[0] % Math.pow(10, -d) != 0
                        : Math.abs(u) > 1e15 || Math.abs(u - Math.rint(u)) > 1e-6;
                if (off) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return d < 0 ? Math.pow(10, -d) : 1 / scale;
            }
        }
        return 0;
    }

    /**
     * Where the bins and bars go. Positions are in "units" from the smallest value: grid steps for values on a grid
     * (bin edges then fall between two values, never through one), plain differences otherwise.
     */
    private static final class Layout {
        final double lo;
        final double top;
        final double step; // the values' grid, 0 for none
        final boolean log;
        final double hi; // the largest value in the bins; the rest is the overflow bar
        final List<Double> edges = new ArrayList<>(); // in units; a value at u is in bin k when edges[k] <= u < edges[k + 1]
        final double[] counts;
        double overflow;
        final int plotWidth;
        /** What the overflow bar's title calls the value it starts above. */
        final String p99Name;

        Layout(List<double[]> points, double p99, String p99Name) {
            this.p99Name = p99Name;
            lo = points.get(0)[0];
            top = points.get(points.size() - 1)[0];
            step = top - lo < 1e15 ? grid(points) : 0;
            log = lo >= 0 && top >= LOG_FROM;
            // below 100 documents the p99 is the largest value or next to it: a bar of one document above it says nothing
            hi = !log && StatsReport.documents(points) >= 100 && !Double.isNaN(p99) && p99 > lo && p99 < top ? p99 : top;
            double last = step > 0 ? Math.floor((hi - lo) / step + 1e-9) + 1 : hi - lo; // the end of the last bin
            if (log) {
                double a = Math.log1p(lo);
                double b = Math.log1p(step > 0 ? top + step : top);
                edges.add(0.0);
                for (int k = 1; k < BINS; k++) {
                    double u = unitsOf(Math.expm1(a + k * (b - a) / BINS));
                    u = step > 0 ? Math.ceil(u - 1e-9) : u;
                    if (u > edges.get(edges.size() - 1) && u < last) {
                        edges.add(u);
                    }
                }
            } else if (step > 0) {
                double perBin = Math.ceil(last / BINS); // grid steps per bin: every bin holds as many values
                for (double u = 0; u < last; u += perBin) {
                    edges.add(u);
                }
            } else {
                for (int k = 0; k < BINS; k++) {
                    edges.add(last * k / BINS);
                }
            }
            edges.add(last);
            counts = new double[edges.size() - 1];
            for (double[] p : points) {
                double u = unitsOf(p[0]);
                if (p[0] > hi) {
                    overflow += p[1];
                    continue;
                }
                int k = java.util.Collections.binarySearch(edges, u);
                k = k >= 0 ? k : -k - 2; // the last edge at or below u
                counts[Math.max(0, Math.min(counts.length - 1, k))] += p[1];
            }
            plotWidth = overflow > 0 ? WIDTH - OVERFLOW_ROOM : WIDTH;
        }

        double unitsOf(double v) {
            return step > 0 ? Math.rint((v - lo) / step) : v - lo;
        }

        double valueOf(double u) {
            return step > 0 ? lo + u * step : lo + u;
        }

        /** The x of a position in units. */
        double x(double u) {
            double end = edges.get(edges.size() - 1);
            if (log) {
                double a = Math.log1p(lo);
                return (Math.log1p(valueOf(u)) - a) / (Math.log1p(valueOf(end)) - a) * plotWidth;
            }
            return end > 0 ? u / end * plotWidth : 0;
        }

        String svg() {
            double[] heights = new double[counts.length]; // documents per bin's width of the axis, where bins differ
            double nominal = (double) plotWidth / BINS;
            double tallest = overflow;
            for (int k = 0; k < counts.length; k++) {
                double w = x(edges.get(k + 1)) - x(edges.get(k));
                heights[k] = log && w > 0 ? counts[k] * Math.min(1, nominal / w) : counts[k];
                tallest = Math.max(tallest, heights[k]);
            }
            StringBuilder s = new StringBuilder();
            s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                    + "viewBox=\"0 0 %d %d\" role=\"img\">", WIDTH, HEIGHT, WIDTH, HEIGHT));
            s.append(String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>",
                    PLOT_HEIGHT, plotWidth, PLOT_HEIGHT));
            for (int k = 0; k < counts.length; k++) {
                if (counts[k] == 0) {
                    continue;
                }
                double from = x(edges.get(k));
                double to = x(edges.get(k + 1));
                bar(s, from, to, heights[k] / tallest, label(k), null);
            }
            if (overflow > 0) {
                bar(s, plotWidth + 10, WIDTH - 4, overflow / tallest, "above " + p99Name + " (" + fmt(hi) + "), up to " + fmt(top) + ": "
                        + docs(overflow), "over");
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">&gt;p99</text>",
                        WIDTH, PLOT_HEIGHT + 16));
            }
            ticks(s);
            s.append(String.format(Locale.ROOT, "<text x=\"2\" y=\"10\" class=\"max\">%smax bin %s</text>",
                    log ? "log scale · " : "", esc(docs(Math.round(tallest)))));
            return s.append("</svg>").toString();
        }

        private static void bar(StringBuilder s, double from, double to, double share, String label, String cssClass) {
            double h = Math.max(1, share * (PLOT_HEIGHT - 12));
            s.append(String.format(Locale.ROOT, "<rect%s x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>%s</title></rect>",
                    cssClass == null ? "" : " class=\"" + cssClass + "\"", from + 0.5, PLOT_HEIGHT - h,
                    Math.max(1.5, to - from - 1), h, esc(label)));
        }

        /** "100 – 102: 3 docs"; a bin of one value on a grid names it alone. */
        private String label(int k) {
            double from = valueOf(edges.get(k));
            double to;
            if (step > 0) {
                to = Math.min(valueOf(edges.get(k + 1) - 1), hi);
                to = Math.min(to, top);
            } else {
                to = valueOf(edges.get(k + 1));
            }
            return (from == to ? fmt(from) : fmt(from) + " – " + fmt(to)) + ": " + docs(counts[k]);
        }

        /** Three to six labelled values under the axis: powers of ten on a log axis, round numbers on a linear one. */
        private void ticks(StringBuilder s) {
            double end = valueOf(edges.get(edges.size() - 1));
            List<Double> at = new ArrayList<>();
            if (log) {
                if (lo == 0) {
                    at.add(0.0);
                }
                // powers of ten; over less than about two decades, 1-2-5 steps (a lone "1,000" under 300..5,000)
                double[] steps = Math.log10(end / Math.max(1, lo)) < 2 ? new double[] {1, 2, 5} : new double[] {1};
                for (double p = 1; p <= end && at.size() < 100; p *= 10) {
                    for (double m : steps) {
                        if (p * m >= lo && p * m <= end) {
                            at.add(p * m);
                        }
                    }
                }
                while (at.size() > 6) { // every other power
                    List<Double> half = new ArrayList<>();
                    for (int i = at.size() - 1; i >= 0; i -= 2) {
                        half.add(0, at.get(i));
                    }
                    at = half;
                }
            } else {
                double range = (step > 0 ? hi : end) - lo;
                double raw = range / 5;
                double mag = Math.pow(10, Math.floor(Math.log10(raw)));
                double nice = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
                // values a few ulps apart (4.5 and 4.500000000000001) make a step that adding leaves t unchanged: at most
                // the six or so ticks a step of a fifth of the range gives
                for (double t = Math.ceil(lo / nice) * nice; t <= lo + range + nice * 1e-9 && at.size() < 12; t += nice) {
                    at.add(Math.abs(t) < nice * 1e-9 ? 0 : t);
                }
            }
            double right = overflow > 0 ? plotWidth - 4 : WIDTH; // the overflow bar's label is right of the plot
            double previousEnd = Double.NEGATIVE_INFINITY;
            for (double t : at) {
                double u = step > 0 ? (t - lo) / step + 0.5 : t - lo; // a grid value's slot is [u, u + 1): its middle
                double x = Math.max(0, Math.min(plotWidth, x(Math.max(0, u))));
                String text = fmt(t);
                double half = text.length() * 3.2; // about half the label's width at the figure's 11px
                String anchor = x < half ? "start" : x > right - half ? "end" : "middle";
                double start = anchor.equals("start") ? x : anchor.equals("end") ? x - 2 * half : x - half;
                if (start < previousEnd + 6) {
                    continue; // "0" and "1" of a log axis over millions, side by side
                }
                previousEnd = start + 2 * half;
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"axis\"/>",
                        x, PLOT_HEIGHT, x, PLOT_HEIGHT + 4));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>", x,
                        PLOT_HEIGHT + 16, anchor, esc(text)));
            }
        }
    }

    static String docs(double n) {
        return fmt(n) + (n == 1 ? " doc" : " docs");
    }
}
