package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.nio.charset.StandardCharsets;

/**
 * Keeps a random {@code rate} of the documents. The decision is a hash of the document id and the
 * {@code seed}, not a draw from a generator, so it is the same whatever the sharding, the rank order
 * or a re-run: a document kept once is always kept.
 */
public final class Sampler extends Filter {
    private final double rate;
    private final long seed;

    public Sampler(StepArgs args) {
        super(args);
        rate = args.number("rate", 0.5);
        if (rate < 0 || rate > 1) {
            throw args.error("rate", "must be between 0 and 1, got " + rate);
        }
        seed = args.integer("seed", 0);
    }

    @Override
    public Verdict filter(Document doc) {
        return unitInterval(doc.id(), seed) < rate ? Verdict.KEEP : Verdict.drop("sampled_out");
    }

    /** A uniform number in [0, 1) from the id and seed (FNV-1a then a SplitMix64 finaliser). */
    static double unitInterval(String id, long seed) {
        long h = 0xcbf29ce484222325L ^ seed;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h += 0x9e3779b97f4a7c15L;
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-53;
    }
}
