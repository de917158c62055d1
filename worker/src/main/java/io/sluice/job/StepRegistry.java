package io.sluice.job;

import io.sluice.pipeline.Step;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The step names a job file may use, each with the factory that builds it from its arguments.
 * A factory reads its keys from {@link StepArgs}; {@link #create} then checks that every key given was read.
 * Each package registers its own steps here (one line each), so this is the table of contents.
 */
public final class StepRegistry {
    private static final Map<String, Function<StepArgs, Step>> FACTORIES = new TreeMap<>();

    static {
        // io
        register("read_jsonl", io.sluice.pipeline.ReadJsonl::new);
        register("write_jsonl", io.sluice.pipeline.WriteJsonl::new);
        // filters
        register("length_filter", io.sluice.filters.LengthFilter::new);
        register("regex_filter", io.sluice.filters.RegexFilter::new);
        register("sampler", io.sluice.filters.Sampler::new);
        register("gopher_quality", io.sluice.filters.GopherQualityFilter::new);
        register("gopher_repetition", io.sluice.filters.GopherRepetitionFilter::new);
        register("c4_quality", io.sluice.filters.C4QualityFilter::new);
        register("fineweb_quality", io.sluice.filters.FineWebQualityFilter::new);
        register("language_filter", io.sluice.filters.LanguageFilter::new);
        register("url_filter", io.sluice.filters.UrlFilter::new);
        // formatters
        register("pii_formatter", io.sluice.formatters.PiiFormatter::new);
        register("symbol_lines_formatter", io.sluice.formatters.SymbolLinesFormatter::new);
        // stats
        register("doc_stats", io.sluice.stats.DocStats::new);
        register("word_stats", io.sluice.stats.WordStats::new);
        register("line_stats", io.sluice.stats.LineStats::new);
        register("paragraph_stats", io.sluice.stats.ParagraphStats::new);
        register("sentence_stats", io.sluice.stats.SentenceStats::new);
        register("merge_stats", io.sluice.stats.MergeStats::new);
        // dedup
        register("minhash_signature", io.sluice.dedup.MinhashSignatureStep::new);
        register("minhash_buckets", io.sluice.dedup.MinhashBucketsStep::new);
        register("minhash_build_index", io.sluice.dedup.MinhashBuildIndexStep::new);
        register("minhash_cluster", io.sluice.dedup.MinhashClusterStep::new);
        register("minhash_filter", io.sluice.dedup.MinhashFilterStep::new);
    }

    private StepRegistry() {
    }

    public static void register(String name, Function<StepArgs, Step> factory) {
        FACTORIES.put(name, factory);
    }

    /** Removes a step registered with {@link #register} (a test's own step, say). */
    public static void unregister(String name) {
        FACTORIES.remove(name);
    }

    public static boolean has(String name) {
        return FACTORIES.containsKey(name);
    }

    public static Iterable<String> names() {
        return FACTORIES.keySet();
    }

    /** Builds the step a job file names. */
    public static Step create(Job.StepSpec spec) {
        return create(spec.type(), StepArgs.ofStep(spec.where(), spec.args()));
    }

    /** Builds a step; unknown names and keys fail with a message naming them and what is allowed. */
    public static Step create(String name, StepArgs args) {
        Function<StepArgs, Step> f = FACTORIES.get(name);
        if (f == null) {
            throw new JobException(args.where() + ": unknown step '" + name + "'"
                    + Spelling.didYouMean(name, FACTORIES.keySet()) + "; known steps: "
                    + String.join(", ", FACTORIES.keySet()));
        }
        Step step;
        try {
            step = f.apply(args);
        } catch (JobException e) {
            throw args.missingOr(e);
        } catch (java.nio.file.InvalidPathException e) { // a NUL in a path: java.nio names the path, not the key
            throw new JobException(args.where() + ": '" + e.getInput().replace('\0', '?') + "' is no path: " + e.getReason());
        }
        args.requireAllUsed();
        return step;
    }
}
