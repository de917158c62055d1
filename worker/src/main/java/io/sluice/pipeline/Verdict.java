package io.sluice.pipeline;

/** A filter's decision: keep, or drop with a reason (datatrove's reason names where it has them). */
public record Verdict(boolean keep, String reason) {
    public static final Verdict KEEP = new Verdict(true, null);

    public static Verdict drop(String reason) {
        return new Verdict(false, reason);
    }
}
