package io.sluice.stats;

import io.sluice.job.StepArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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

    /** The groups a top_k may cut, as datatrove's {@code TopKConfig.top_k_groups}; also its default. */
    static final List<String> TOP_K_GROUPS = List.of("fqdn", "suffix");

    /** {@code top_k}: how many keys, by documents, a group of {@link #topKGroups} keeps. */
    static int topK(StepArgs args) {
        args.refuseNull(", which datatrove fails on (it takes that many keys); give a number, or leave the key out for "
                + MetricStatsDict.DEFAULT_TOP_K, "top_k");
        long k = args.integer("top_k", MetricStatsDict.DEFAULT_TOP_K);
        if (k < 1 || k > Integer.MAX_VALUE) {
            throw args.error("top_k", "must be a positive integer, got " + k);
        }
        return (int) k;
    }

    /**
     * {@code top_k_groups}: the groups cut to {@code top_k} keys (default fqdn and suffix; {@code []} keeps every
     * key). Only those two, as datatrove: summary has one key, and a histogram cut at its most frequent values
     * would lose its tails.
     */
    static Set<String> topKGroups(StepArgs args) {
        return Set.copyOf(subset(args, "top_k_groups", TOP_K_GROUPS));
    }

    /**
     * A list of names from {@code allowed} (default all of them), each once: a group named twice counts once, as
     * in datatrove's dict of groups.
     */
    static List<String> subset(StepArgs args, String key, List<String> allowed) {
        List<String> names = args.strings(key, allowed).stream().distinct().toList();
        for (String g : names) {
            if (!allowed.contains(g)) {
                throw args.error(key, "must be a subset of " + String.join(", ", allowed) + ", got '" + g + "'"
                        + io.sluice.job.Spelling.didYouMean(g, allowed));
            }
        }
        return names;
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
