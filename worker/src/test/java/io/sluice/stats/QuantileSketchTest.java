package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class QuantileSketchTest {
    @Test
    void quantilesAreWithinOnePercentOfTheExactValueAtTheirRank() {
        Random rnd = new Random(1);
        double[] values = new double[20000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 10 == 0 ? 0 : Math.exp(rnd.nextGaussian() * 4);
        }
        QuantileSketch s = new QuantileSketch();
        for (double v : values) {
            s.add(v);
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double q : new double[] {0, 0.01, 0.05, 0.1, 0.5, 0.9, 0.99, 1}) {
            double exact = sorted[(int) Math.floor(q * (values.length - 1))];
            double got = s.quantile(q);
            assertTrue(Math.abs(got - exact) <= QuantileSketch.RELATIVE_ACCURACY * exact + 1e-300,
                    "q=" + q + " exact " + exact + " got " + got);
        }
    }

    /** Bucket counts add: any split merged in any order gives byte-identical files. */
    /**
     * Counts (whole numbers) get their exact value wherever the answer's bucket holds one whole number, all below 50,
     * and stay within 1% elsewhere, negative ones included.
     */
    @Test
    void quantilesOfWholeNumbersAreExactWhereTheirBucketHoldsOne() {
        Random rnd = new Random(3);
        for (int round = 0; round < 20; round++) {
            QuantileSketch s = new QuantileSketch();
            long[] values = new long[500 + rnd.nextInt(2000)];
            int spread = 1 + rnd.nextInt(round < 10 ? 50 : 5000);
            for (int i = 0; i < values.length; i++) {
                values[i] = rnd.nextInt(spread) - (round % 4 == 0 ? spread / 2 : 0);
                s.add(values[i]);
            }
            Arrays.sort(values);
            int exact = 0;
            for (int r = 0; r <= 100; r++) {
                double q = r / 100.0;
                long truth = values[(int) Math.floor(q * (values.length - 1))];
                double got = s.quantile(q, true);
                assertTrue(Math.abs(got - truth) <= 0.01 * Math.abs(truth), q + ": " + got + " for " + truth);
                if (Math.abs(truth) < 50) {
                    assertEquals(truth, got, q + " of values below 50");
                }
                exact += got == truth ? 1 : 0;
            }
            assertTrue(round >= 10 || exact == 101, "every quantile exact under 50: " + exact);
        }
    }

    @Test
    void mergeIsExactAndOrderIndependent() throws Exception {
        Random rnd = new Random(5);
        double[] values = new double[3000];
        for (int i = 0; i < values.length; i++) {
            values[i] = rnd.nextDouble() * Math.pow(10, rnd.nextInt(30) - 15);
        }
        QuantileSketch one = new QuantileSketch();
        for (double v : values) {
            one.add(v);
        }
        QuantileSketch[] parts = new QuantileSketch[7];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = new QuantileSketch();
        }
        for (int i = 0; i < values.length; i++) {
            parts[rnd.nextInt(parts.length)].add(values[i]);
        }
        ObjectMapper json = new ObjectMapper();
        QuantileSketch merged = new QuantileSketch();
        for (int i = parts.length - 1; i >= 0; i--) {
            merged.merge(QuantileSketch.fromJson(json.readTree(parts[i].toJson())));
        }
        assertEquals(one.toJson(), merged.toJson());
    }

    /** Infinity failed on an array index, and -0.0 beside 0.0 made the file depend on the order the values came in. */
    @Test
    void infinityIsRefusedAndNegativeZeroIsZero() {
        for (double v : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new QuantileSketch().add(v));
            assertTrue(e.getMessage().endsWith(" has no quantile"), e.getMessage());
        }
        QuantileSketch a = new QuantileSketch();
        a.add(0.0);
        a.add(-0.0);
        QuantileSketch b = new QuantileSketch();
        b.add(-0.0);
        b.add(0.0);
        assertEquals(a.toJson(), b.toJson());
        QuantileSketch merged = new QuantileSketch();
        QuantileSketch negativeZero = new QuantileSketch();
        negativeZero.add(-0.0);
        merged.add(0.0);
        merged.merge(negativeZero);
        assertEquals(a.toJson(), merged.toJson());
        assertFalse(a.toJson().contains("-0.0"), a.toJson());
    }

    @Test
    void bucketCountIsBounded() {
        QuantileSketch s = new QuantileSketch();
        for (int e = -300; e <= 300; e++) {
            s.add(Math.pow(10, e));
            s.add(1.5 * Math.pow(10, e));
        }
        assertEquals(1202, s.count());
        assertTrue(s.toJson().split("\\], \\[").length <= QuantileSketch.MAX_BUCKETS);
        assertTrue(Math.abs(s.quantile(1.0) - 1.5e300) <= 0.01 * 1.5e300);
    }

    /**
     * The dense bucket window against a plain model (a sorted map, folded the way the class comment
     * says) on values spread so widely that the window moves both ways and folds again and again.
     */
    @Test
    void bucketsMatchASortedMapModelThroughFoldsAndMerges() throws Exception {
        Random rnd = new Random(11);
        ObjectMapper json = new ObjectMapper();
        for (int round = 0; round < 20; round++) {
            QuantileSketch sketch = new QuantileSketch();
            TreeMap<Integer, Long> model = new TreeMap<>();
            QuantileSketch part = new QuantileSketch();
            TreeMap<Integer, Long> partModel = new TreeMap<>();
            for (int k = 0; k < 3000; k++) {
                // mostly near one scale, sometimes far above or below it, so spans exceed MAX_BUCKETS
                double scale = Math.pow(10, rnd.nextInt(10) == 0 ? rnd.nextInt(600) - 300 : round - 10);
                double v = scale * (0.5 + rnd.nextDouble());
                boolean toPart = rnd.nextInt(3) == 0;
                (toPart ? part : sketch).add(v);
                addToModel(toPart ? partModel : model, bucketIndex(v), 1);
            }
            sketch.merge(QuantileSketch.fromJson(json.readTree(part.toJson())));
            partModel.forEach((i, c) -> addToModel(model, i, c));
            StringBuilder expected = new StringBuilder();
            model.forEach((i, c) -> expected.append(expected.isEmpty() ? "" : ", ").append('[').append(i).append(", ").append(c).append(']'));
            String got = sketch.toJson();
            String positive = got.substring(got.indexOf("\"positive\": [") + 13, got.indexOf("], \"negative\""));
            assertEquals(expected.toString(), positive, "round " + round);
        }
    }

    private static int bucketIndex(double v) {
        double gamma = (1 + QuantileSketch.RELATIVE_ACCURACY) / (1 - QuantileSketch.RELATIVE_ACCURACY);
        return (int) Math.ceil(StrictMath.log(v) / StrictMath.log(gamma));
    }

    private static void addToModel(TreeMap<Integer, Long> buckets, int index, long c) {
        buckets.merge(index, c, Long::sum);
        int threshold = buckets.lastKey() - QuantileSketch.MAX_BUCKETS + 1;
        long folded = 0;
        for (Map.Entry<Integer, Long> e : buckets.headMap(threshold, false).entrySet()) {
            folded += e.getValue();
        }
        if (folded > 0) {
            buckets.headMap(threshold, false).clear();
            buckets.merge(threshold, folded, Long::sum);
        }
    }

    @Test
    void aBucketWithoutACountIsRejected() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String bad = "{\"relative_accuracy\": 0.01, \"count\": 1, \"zero_count\": 0, \"min\": 1.0, \"max\": 1.0,"
                + " \"positive\": [[0, 0]], \"negative\": []}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> QuantileSketch.fromJson(json.readTree(bad)));
        assertTrue(e.getMessage().contains("positive count"), e.getMessage());
    }

    @Test
    void quantilesAmongValuesEqualToTheMinOrMaxAreExact() throws Exception {
        // a ratio metric: a tenth of the documents at exactly 1.0, a fifth at exactly 0; the sketch alone gave
        // 0.99 for 1.0
        Random rnd = new Random(7);
        QuantileSketch one = new QuantileSketch();
        QuantileSketch[] parts = {new QuantileSketch(), new QuantileSketch(), new QuantileSketch()};
        for (int i = 0; i < 1000; i++) {
            double v = i < 100 ? 1.0 : i < 300 ? 0.0 : 0.3 + 0.6 * rnd.nextDouble();
            one.add(v);
            parts[rnd.nextInt(3)].add(v);
        }
        assertEquals(1.0, one.quantile(0.91));
        assertEquals(1.0, one.quantile(0.99));
        assertEquals(0.0, one.quantile(0.1));
        assertTrue(one.quantile(0.5) > 0.3 && one.quantile(0.5) < 0.9);
        QuantileSketch merged = new QuantileSketch();
        ObjectMapper json = new ObjectMapper();
        for (QuantileSketch p : parts) {
            merged.merge(QuantileSketch.fromJson(json.readTree(p.toJson())));
        }
        assertEquals(one.toJson(), merged.toJson(), "split, written, read and merged: the same sketch");
        // a sketch written before the counts were kept reads, with the old answers
        String old = one.toJson().replaceAll(", \"min_count\": \\d+, \"max_count\": \\d+", "");
        assertTrue(QuantileSketch.fromJson(json.readTree(old)).quantile(0.99) < 1.0);
    }
}
