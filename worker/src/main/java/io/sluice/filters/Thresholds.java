package io.sluice.filters;

import io.sluice.job.StepArgs;

/**
 * Reads the optional thresholds of datatrove-style filters. A key left out takes datatrove's default;
 * a key given as {@code null} (or {@code 0}, which Python's {@code if self.x and ...} treats the same)
 * turns that check off, which is returned as {@code null}.
 */
final class Thresholds {
    private Thresholds() {
    }

    static Double number(StepArgs args, String key, double dflt) {
        boolean explicitNull = args.raw().containsKey(key) && args.raw().get(key) == null;
        double v = args.number(key, dflt);
        return explicitNull || v == 0 ? null : v;
    }

    static Long integer(StepArgs args, String key, long dflt) {
        boolean explicitNull = args.raw().containsKey(key) && args.raw().get(key) == null;
        long v = args.integer(key, dflt);
        return explicitNull || v == 0 ? null : v;
    }

    /** {@code a / b} as Python divides, except that nothing divided by nothing is 0 instead of an error. */
    static double ratio(double a, double b) {
        return b == 0 ? 0 : a / b;
    }
}
