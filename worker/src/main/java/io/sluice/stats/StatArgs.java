package io.sluice.stats;

import io.sluice.job.StepArgs;
import java.util.ArrayList;
import java.util.List;

/** Job-file helpers shared by the stats blocks. */
final class StatArgs {
    private StatArgs() {
    }

    /**
     * A list of non-negative integers (a single integer is a one-element list), each once: a threshold given
     * twice names one stat, as in datatrove.
     *
     * @param emptyMeansDefault datatrove's {@code x or [default]}: an empty list also gives the default
     */
    static int[] ints(StepArgs args, String key, int[] dflt, boolean emptyMeansDefault) {
        if (!args.has(key)) {
            return dflt;
        }
        Object raw = args.raw().get(key);
        List<?> list = raw instanceof List<?> l ? l : List.of(raw);
        if (list.isEmpty() && emptyMeansDefault) {
            return dflt;
        }
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            Object o = list.get(i);
            // a float (10.0) is refused rather than named as an int: datatrove names its stat "..._10.0"; a count past
            // int range wrapped (5000000000 became ..._705032704)
            long n = o instanceof Integer || o instanceof Long ? ((Number) o).longValue() : -1;
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw args.error(key, "must be a list of whole numbers from 0 to " + Integer.MAX_VALUE + ", got '" + o + "'");
            }
            out[i] = (int) n;
        }
        return java.util.Arrays.stream(out).distinct().toArray();
    }

    /** Flags for a stat list whose first entry is a count (int) and the rest ratios (float). */
    static List<Boolean> firstIntegral(int size) {
        List<Boolean> flags = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            flags.add(i == 0);
        }
        return flags;
    }
}
