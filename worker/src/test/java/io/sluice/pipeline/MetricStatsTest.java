package io.sluice.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

public class MetricStatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void toJsonHasDatatrovesConditionalKeys() {
        MetricStats zero = new MetricStats();
        zero.add(0.0);
        zero.add(0.0);
        assertEquals("0", zero.toJson(), "an all-zero metric is the bare number 0");

        MetricStats counts = new MetricStats();
        counts.add(1L);
        counts.add(1L);
        counts.add(1L);
        assertEquals("{\"total\": 3, \"unit\": \"task\"}", counts.toJson(), "n == total and mean == 1 are left out");

        MetricStats one = new MetricStats();
        one.add(1458L);
        assertEquals("{\"total\": 1458, \"mean\": 1458.0, \"unit\": \"task\"}", one.toJson());

        MetricStats spread = new MetricStats();
        spread.add(2L);
        spread.add(4L);
        spread.add(9L);
        assertEquals("{\"total\": 15, \"n\": 3, \"mean\": 5.0, \"variance\": 13.0, \"std_dev\": 3.605551275463989, "
                + "\"min\": 2, \"max\": 9, \"unit\": \"task\"}", spread.toJson());

        MetricStats ratios = new MetricStats();
        ratios.add(0.5);
        ratios.add(1.5);
        assertEquals("{\"total\": 2.0, \"mean\": 1.0, \"variance\": 0.5, \"std_dev\": 0.7071067811865476, "
                + "\"min\": 0.5, \"max\": 1.5, \"unit\": \"task\"}", ratios.toJson(), "n == total (2 == 2.0) is left out");
    }

    /**
     * Mixed integers and floats (token_count metadata, say): the total is a float as soon as one value is, min and
     * max are whichever value they are, as Python's min and max keep it; before, both printed as floats.
     */
    @Test
    void minAndMaxKeepTheTypeOfTheirValue() throws Exception {
        MetricStats all = new MetricStats();
        MetricStats first = new MetricStats();
        MetricStats second = new MetricStats();
        all.add(3L);
        first.add(3L);
        all.add(3.5);
        first.add(3.5);
        all.add(7L);
        second.add(7L);
        all.add(2.0);
        second.add(2.0);
        String json = all.toJson();
        assertTrue(json.startsWith("{\"total\": 15.5, \"n\": 4,") && json.contains("\"min\": 2.0, \"max\": 7,"), json);
        // merged as merge_stats merges: each part written, read back and added
        MetricStats merged = MetricStats.fromJson(JSON.readTree(first.toJson()));
        merged.merge(MetricStats.fromJson(JSON.readTree(second.toJson())));
        assertEquals(json, merged.toJson());
        // a rank whose values are all equal writes no min or max: datatrove reads them as its mean, 5.0
        MetricStats fives = new MetricStats();
        fives.add(5L);
        fives.add(5L);
        MetricStats others = new MetricStats();
        others.add(3L);
        others.add(4L);
        MetricStats read = MetricStats.fromJson(JSON.readTree(fives.toJson()));
        read.merge(MetricStats.fromJson(JSON.readTree(others.toJson())));
        assertTrue(read.toJson().contains("\"min\": 3, \"max\": 5.0,"), fives.toJson() + " + " + others.toJson() + " -> " + read.toJson());
        // of equal values the first stays, as min(3, 3.0) is 3
        MetricStats tie = new MetricStats();
        tie.add(3L);
        tie.add(3.0);
        tie.add(5.0);
        assertTrue(tie.toJson().contains("\"min\": 3, \"max\": 5.0,"), tie.toJson());
    }

    @Test
    void fromJsonReadsDictsAndBareNumbers() throws Exception {
        MetricStats bare = MetricStats.fromJson(JSON.readTree("0"));
        assertEquals(1, bare.n(), "datatrove reads a bare number as one sample");
        MetricStats d = MetricStats.fromJson(JSON.readTree("{\"total\": 15, \"n\": 3, \"mean\": 5.0, \"variance\": 13.0,"
                + " \"std_dev\": 3.605551275463989, \"min\": 2, \"max\": 9, \"unit\": \"task\"}"));
        assertEquals(3, d.n());
        assertEquals(13.0, d.variance());
        assertEquals(2.0, d.min());
        assertTrue(d.integral());
        MetricStats counts = MetricStats.fromJson(JSON.readTree("{\"total\": 13, \"unit\": \"task\"}"));
        assertEquals(13, counts.n(), "n left out because it equals total");
        assertEquals(1.0, counts.mean());
        MetricStats single = MetricStats.fromJson(JSON.readTree("{\"total\": 1458, \"mean\": 1458.0}"));
        assertEquals(1, single.n(), "n = total / mean (datatrove's own reader would say 1458)");
        MetricStats ones = MetricStats.fromJson(JSON.readTree("{\"total\": 2.0, \"mean\": 1.0, \"variance\": 0.5, "
                + "\"std_dev\": 0.7071067811865476, \"min\": 0.5, \"max\": 1.5, \"unit\": \"task\"}"));
        assertEquals(2, ones.n());
    }

    /** A histogram bin keeps its document count as a number; written out, it is what adding 1 per document gives. */
    @Test
    void onesAreTheSumOfAddingOneEachTime() {
        for (long count : new long[] {0, 1, 2, 3, 1000, 123_457}) {
            MetricStats added = new MetricStats();
            for (long k = 0; k < count; k++) {
                added.add(1L);
            }
            MetricStats ones = MetricStats.ofOnes(count);
            assertEquals(added.toJson(), ones.toJson(), count + " documents");
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            added.appendJson(a, true);
            ones.appendJson(b, true);
            assertEquals(a.toString(), b.toString(), count + " documents, lossless");
            MetricStats merged = new MetricStats();
            merged.merge(ones);
            merged.merge(MetricStats.ofOnes(5));
            added.merge(MetricStats.ofOnes(5));
            assertEquals(added.toJson(), merged.toJson(), count + " + 5 documents, merged");
        }
    }

    @Test
    void losslessFormKeepsEveryCount() throws Exception {
        for (double[] values : new double[][] {{0, 0, 0}, {2.5}, {7}, {1, 1}, {1, 1, 1}, {0.5, 1.5}}) {
            MetricStats s = new MetricStats();
            for (double v : values) {
                s.add(v);
            }
            StringBuilder sb = new StringBuilder();
            s.appendJson(sb, true);
            MetricStats back = MetricStats.fromJson(JSON.readTree(sb.toString()));
            assertEquals(s.n(), back.n(), sb.toString());
            assertEquals(s.total(), back.total(), sb.toString());
            assertEquals(s.mean(), back.mean(), sb.toString());
        }
    }

    /** Merging the per-rank results of any split equals one pass, also after a JSON round trip. */
    @Test
    void mergeOfAnySplitEqualsOnePass() throws Exception {
        Random rnd = new Random(42);
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            values.add(i % 7 == 0 ? 0.0 : Math.exp(rnd.nextGaussian() * 3));
        }
        MetricStats onePass = new MetricStats();
        values.forEach(onePass::add);
        List<int[]> splits = new ArrayList<>();
        for (int ranks : new int[] {1, 2, 7}) {
            splits.add(even(values.size(), ranks));
        }
        for (int t = 0; t < 20; t++) {
            splits.add(random(values.size(), 1 + rnd.nextInt(12), rnd));
        }
        for (int[] bounds : splits) {
            MetricStats merged = new MetricStats();
            for (int r = 0; r + 1 < bounds.length; r++) {
                MetricStats part = new MetricStats();
                for (int i = bounds[r]; i < bounds[r + 1]; i++) {
                    part.add(values.get(i));
                }
                StringBuilder sb = new StringBuilder();
                part.appendJson(sb, true);
                merged.merge(MetricStats.fromJson(JSON.readTree(sb.toString())));
            }
            assertClose(onePass, merged, bounds.length - 1 + " ranks");
        }
    }

    public static void assertClose(MetricStats a, MetricStats b, String what) {
        assertEquals(a.n(), b.n(), what + " n");
        assertRel(a.total(), b.total(), what + " total");
        assertRel(a.mean(), b.mean(), what + " mean");
        assertRel(a.variance(), b.variance(), what + " variance");
        assertEquals(a.min(), b.min(), what + " min");
        assertEquals(a.max(), b.max(), what + " max");
    }

    static void assertRel(double a, double b, String what) {
        double rel = a == b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
        assertTrue(rel <= 1e-9, what + ": " + a + " vs " + b);
    }

    public static int[] even(int n, int ranks) {
        int[] b = new int[ranks + 1];
        for (int r = 0; r <= ranks; r++) {
            b[r] = (int) ((long) n * r / ranks);
        }
        return b;
    }

    public static int[] random(int n, int ranks, Random rnd) {
        int[] b = new int[ranks + 1];
        for (int r = 1; r < ranks; r++) {
            b[r] = rnd.nextInt(n + 1);
        }
        b[ranks] = n;
        java.util.Arrays.sort(b);
        return b;
    }
}
