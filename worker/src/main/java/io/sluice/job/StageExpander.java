package io.sluice.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one stage entry of a job file into stages: a plain stage ({@code name}, {@code steps},
 * {@code tasks}, {@code workers}, {@code depends}) stays one stage; a block such as {@code minhash:}
 * stands for several.
 */
final class StageExpander {
    /** The names of a minhash: block's four stages, after the block's name. */
    static final List<String> MINHASH_STAGES = List.of("_signatures", "_buckets", "_cluster", "_filter");

    private StageExpander() {
    }

    /** The stages of one entry, its problems noted in {@code problems}; none when they leave nothing to run. */
    static List<Job.Stage> expand(String where, Map<String, Object> m, int jobTasks, int jobWorkers, Problems problems) {
        StepArgs a = new StepArgs(where, m);
        String name = problems.get(() -> a.requireString("name"), "");
        if (!name.isEmpty() && (name.isBlank() || name.startsWith(".") || name.contains("/") || name.contains("\\"))) {
            // the name is the stage's folder in the logging dir: "../x" or "a/b" would put it elsewhere, and
            // names starting with "." are kept for Sluice's own files there
            problems.add(a.error("name", "is '" + name + "', which cannot name a stage: the name is the stage's folder in the"
                    + " logging dir, so it must not be blank, start with '.' or hold '/' or '\\'").getMessage());
        }
        String named = name.isEmpty() ? where : where + " (" + name + ")";
        int tasks = problems.get(() -> JobFile.taskCount(a, "tasks", a.integer("tasks", jobTasks)), jobTasks);
        int workers = problems.get(() -> JobFile.workers(a, jobWorkers), jobWorkers);
        // null: after the stage before; []: after none
        List<String> depends = problems.get(() -> a.strings("depends", null), null);
        a.readElsewhere("slurm"); // JobFile reads a stage's slurm block
        if (a.has("minhash")) {
            Map<String, Object> block = problems.get(() -> a.map("minhash"), null);
            problems.check(a::requireAllUsed);
            return block == null ? List.of()
                    : minhash(named, name, tasks, workers, depends, new StepArgs(named + ".minhash", block), problems);
        }
        int before = problems.size();
        List<Object> steps = problems.get(() -> JobFile.list(a, "steps"), null);
        problems.check(a::requireAllUsed);
        if (steps == null || steps.isEmpty()) {
            if (problems.size() == before) { // else an unknown key, likely 'steps' misspelt, or steps not a list
                problems.add(named + ": 'steps' is required: a list such as [{read_jsonl: {path: ...}}, ...]");
            }
            return List.of();
        }
        return List.of(new Job.Stage(name, tasks, workers, depends, stepSpecs(named + ".steps", steps, problems)));
    }

    /** The steps of a list (a stage's {@code steps}, a block's {@code after_filter}), each problem noted. */
    private static List<Job.StepSpec> stepSpecs(String where, List<Object> items, Problems problems) {
        List<Job.StepSpec> specs = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String stepWhere = where + "[" + i + "]";
            Object item = items.get(i);
            Job.StepSpec spec = problems.get(() -> stepSpec(stepWhere, item), null);
            if (spec != null) {
                specs.add(spec);
            }
        }
        return List.copyOf(specs);
    }

    private static final List<String> MINHASH_CONFIG_KEYS =
            List.of("n_grams", "num_buckets", "hashes_per_bucket", "seed", "precision", "hash_fc");

    /**
     * A {@code minhash:} block: the four dedup stages of docs/minhash.md, named
     * {@code <name>_signatures}, {@code _buckets}, {@code _cluster}, {@code _filter}, with intermediate
     * files under {@code work_dir}. The signature and filter stages share the reader and task count,
     * so their ranks see the same documents in the same order. None when the block has problems.
     */
    private static List<Job.Stage> minhash(String where, String name, int tasks, int workers, List<String> depends,
                                           StepArgs m, Problems problems) {
        int before = problems.size();
        List<String> required = new ArrayList<>();
        Map<String, Object> reader = problems.get(() -> readerArgs(m, "input", required), null);
        Object output = m.raw().get("output");
        if (!m.has("output")) {
            required.add(m.error("output", "is required: the folder (or write_jsonl arguments) for the kept documents").getMessage());
        }
        Map<String, Object> writer = problems.get(() -> {
            if (output instanceof List<?>) {
                throw m.error("output", "must be one folder, or write_jsonl arguments such as {path: ..., compression: ...}; got a list");
            }
            return output instanceof Map<?, ?> ? m.map("output") : new LinkedHashMap<>(Map.of("path", m.string("output", "null")));
        }, null);
        String work = problems.get(() -> m.requireString("work_dir"), "");
        Map<String, Object> config = new LinkedHashMap<>();
        for (String k : MINHASH_CONFIG_KEYS) {
            if (m.has(k)) {
                config.put(k, m.raw().get(k));
            }
        }
        problems.get(() -> {
            io.sluice.text.EnglishText.requireEnglish(m); // minhash_signature's language: the shingles' tokenizer
            return null;
        }, null);
        long numBuckets = problems.get(() -> JobFile.positive(m, "num_buckets", m.integer("num_buckets", 14)), 14);
        // the other MinHash keys once for the block, rather than once for each of the three steps taking them
        Map<String, Object> hashing = new LinkedHashMap<>(config);
        hashing.remove("num_buckets");
        problems.get(() -> io.sluice.dedup.MinhashConfig.fromArgs(new StepArgs(m.where(), hashing)), null);
        int bucketTasks = problems.get(() -> JobFile.taskCount(m, "bucket_tasks", m.integer("bucket_tasks", numBuckets)), 1);
        if (numBuckets > 0 && bucketTasks % numBuckets != 0) {
            // told here, of the key, rather than by the buckets stage it makes, which names no line the user wrote
            problems.add(m.error("bucket_tasks", "(" + bucketTasks + ") must be a multiple of num_buckets (" + numBuckets
                    + "): each bucket gets bucket_tasks / num_buckets of the bucket ranks").getMessage());
        }
        Map<String, Object> index = new LinkedHashMap<>(); // deduplicating against another corpus's index
        for (String k : INDEX_KEYS) {
            if (m.has(k)) {
                index.put(k, m.raw().get(k));
            }
        }
        Object exclusion = m.rawValue("exclusion_output");
        boolean clusterMetadata = problems.get(() -> m.bool("cluster_metadata", false), false);
        String keep = problems.get(() -> m.choice("keep", "datatrove", "datatrove", "first", "longest"), "datatrove");
        // steps on the kept documents before they are written, as FineWeb runs PIIFormatter: no pass of its own
        List<Object> after = problems.get(() -> JobFile.list(m, "after_filter"), null);
        List<Job.StepSpec> afterFilter = after == null ? List.of() : stepSpecs(m.where() + ".after_filter", after, problems);
        for (Job.StepSpec spec : afterFilter) {
            if (spec.type().startsWith("minhash_")) {
                // a second minhash_filter would take positions in the documents the first one kept
                problems.add(spec.where() + ": the block runs the MinHash steps itself; after_filter is for steps on the"
                        + " documents it keeps");
            }
        }
        Map<String, Map<String, Object>> stepKeys = new LinkedHashMap<>();
        for (String step : STEP_OVERRIDES) {
            stepKeys.put(step, m.has(step) ? problems.get(() -> m.map(step), Map.of()) : Map.of());
        }
        problems.check(m::requireAllUsed);
        // after the unknown keys, as StepArgs tells a missing key: an unknown one is often the missing one misspelt
        required.forEach(problems::add);

        String sigs = work + "/signatures";
        String dups = work + "/buckets";
        String clusters = work + "/clusters";
        Map<String, Object> sig = new LinkedHashMap<>(config);
        sig.put("output", sigs);
        Map<String, Object> buckets = new LinkedHashMap<>(config);
        buckets.put("input", sigs);
        buckets.put("output", dups);
        buckets.putAll(index);
        Map<String, Object> cluster = new LinkedHashMap<>(config);
        cluster.put("input", dups);
        cluster.put("output", clusters);
        cluster.put("keep", keep);
        cluster.put("cluster_metadata", clusterMetadata);
        if (keep.equals("longest")) {
            cluster.put("signatures", sigs);
        }
        Map<String, Object> filter = new LinkedHashMap<>(); // the filter reads indices only: no config keys
        filter.put("input", clusters);
        filter.put("cluster_metadata", clusterMetadata);
        if (exclusion != null) {
            filter.put("exclusion_output", exclusion);
        }
        String w = where + ".minhash";
        addStepKeys(m, "signature", stepKeys.get("signature"), sig, problems);
        addStepKeys(m, "buckets", stepKeys.get("buckets"), buckets, problems);
        addStepKeys(m, "cluster", stepKeys.get("cluster"), cluster, problems);
        addStepKeys(m, "filter", stepKeys.get("filter"), filter, problems);
        if (problems.size() > before) {
            // the block's stages are not built, so neither are the steps its mappings go to: they are built here, so
            // that what those steps say of input, output, exclusion_output, the per-stage keys and after_filter is
            // told in this round too (before, a misspelt block key hid an unknown key there until the next run);
            // without the MinHash parameters, whose problems the block has told once
            List<Job.StepSpec> steps = new ArrayList<>();
            if (reader != null) {
                steps.add(new Job.StepSpec("read_jsonl", reader, w + ".input (read_jsonl)"));
            }
            steps.add(new Job.StepSpec("minhash_signature", withoutConfig(sig), w + " (minhash_signature)"));
            steps.add(new Job.StepSpec("minhash_buckets", withoutConfig(buckets), w + " (minhash_buckets)"));
            steps.add(new Job.StepSpec("minhash_cluster", withoutConfig(cluster), w + " (minhash_cluster)"));
            steps.add(new Job.StepSpec("minhash_filter", filter, w + " (minhash_filter)"));
            afterFilter.stream().filter(spec -> !spec.type().startsWith("minhash_")).forEach(steps::add); // those are refused above
            if (writer != null) {
                steps.add(new Job.StepSpec("write_jsonl", writer, w + ".output (write_jsonl)"));
            }
            steps.forEach(spec -> problems.get(() -> StepRegistry.create(spec), null));
            return List.of();
        }
        String s1 = name + MINHASH_STAGES.get(0);
        String s2 = name + MINHASH_STAGES.get(1);
        String s3 = name + MINHASH_STAGES.get(2);
        return List.of(
                new Job.Stage(s1, tasks, workers, depends, List.of(
                        new Job.StepSpec("read_jsonl", reader, w + ".input (read_jsonl)"),
                        new Job.StepSpec("minhash_signature", sig, w + " (minhash_signature)"))),
                new Job.Stage(s2, bucketTasks, workers, List.of(s1), List.of(
                        new Job.StepSpec("minhash_buckets", buckets, w + " (minhash_buckets)"))),
                new Job.Stage(s3, 1, workers, List.of(s2), List.of(
                        new Job.StepSpec("minhash_cluster", cluster, w + " (minhash_cluster)"))),
                new Job.Stage(name + MINHASH_STAGES.get(3), tasks, workers, List.of(s3), filterSteps(reader, filter, afterFilter, writer, w)));
    }

    private static Map<String, Object> withoutConfig(Map<String, Object> args) {
        Map<String, Object> rest = new LinkedHashMap<>(args);
        rest.keySet().removeAll(MINHASH_CONFIG_KEYS);
        return rest;
    }

    private static List<Job.StepSpec> filterSteps(Map<String, Object> reader, Map<String, Object> filter,
                                                  List<Job.StepSpec> afterFilter, Map<String, Object> writer, String w) {
        List<Job.StepSpec> steps = new ArrayList<>();
        steps.add(new Job.StepSpec("read_jsonl", reader, w + ".input (read_jsonl)"));
        steps.add(new Job.StepSpec("minhash_filter", filter, w + " (minhash_filter)"));
        steps.addAll(afterFilter);
        steps.add(new Job.StepSpec("write_jsonl", writer, w + ".output (write_jsonl)"));
        return List.copyOf(steps);
    }

    /**
     * The block's keys {@code signature:}, {@code buckets:}, {@code cluster:} and {@code filter:}: more
     * arguments for that stage's step ({@code buckets: {memory_limit: 1G}}, {@code cluster: {threads: 8}}),
     * checked by the step itself. Keys the block sets are refused there, so one setting has one place.
     */
    private static final List<String> STEP_OVERRIDES = List.of("signature", "buckets", "cluster", "filter");
    private static final List<String> INDEX_KEYS = List.of("index_folder", "only_dedup_in_index", "create_index_name");
    /** Step keys the block sets from keys of its own. */
    private static final List<String> BLOCK_STEP_KEYS = List.of("keep", "cluster_metadata", "exclusion_output");

    private static void addStepKeys(StepArgs block, String step, Map<String, Object> extra, Map<String, Object> args,
                                    Problems problems) {
        for (Map.Entry<String, Object> e : extra.entrySet()) {
            String key = e.getKey();
            if (MINHASH_CONFIG_KEYS.contains(key) || INDEX_KEYS.contains(key) || BLOCK_STEP_KEYS.contains(key)) {
                // the MinHash parameters must agree across the four stages
                problems.add(block.error(step, "sets '" + key + "', which is a key of the minhash: block; give it there,"
                        + " once for all its stages").getMessage());
            } else if (args.containsKey(key)) {
                problems.add(block.error(step, "sets '" + key + "', which the minhash: block sets itself").getMessage());
            } else {
                args.put(key, e.getValue());
            }
        }
    }

    /** A reader given as a folder path or as read_jsonl arguments; null, noted in {@code required}, when missing. */
    private static Map<String, Object> readerArgs(StepArgs m, String key, List<String> required) {
        Object v = m.raw().get(key);
        if (!m.has(key)) {
            required.add(m.error(key, "is required: the input folder, or read_jsonl arguments such as {path: ..., glob: ...}").getMessage());
            return null;
        }
        if (v instanceof List<?>) { // was read as the folder "[a, b]"
            throw m.error(key, "must be one folder, or read_jsonl arguments such as {path: ..., glob: ...}; got a list");
        }
        return v instanceof Map<?, ?> ? m.map(key) : new LinkedHashMap<>(Map.of("path", m.string(key, "null")));
    }

    @SuppressWarnings("unchecked")
    static Job.StepSpec stepSpec(String where, Object item) {
        if (item instanceof String s) {
            return new Job.StepSpec(s, Map.of(), where + " (" + s + ")");
        }
        if (!(item instanceof Map<?, ?> m) || m.size() != 1) {
            throw new JobException(where + ": a step must be a mapping with one key, the step name, e.g. {length_filter: {min_words: 50}}");
        }
        Map.Entry<?, ?> e = m.entrySet().iterator().next();
        String type = String.valueOf(e.getKey());
        Object args = e.getValue();
        if (args != null && !(args instanceof Map)) {
            throw new JobException(where + " (" + type + "): the arguments must be a mapping, got '" + args + "'");
        }
        return new Job.StepSpec(type, args == null ? Map.of() : (Map<String, Object>) args, where + " (" + type + ")");
    }
}
