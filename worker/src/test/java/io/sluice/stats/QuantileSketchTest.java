package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.Random;
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
}
