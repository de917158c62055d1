package io.sluice.job;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * "Did you mean" for names in job files: the known name a datatrove argument name stands for, or the closest
 * known name when it is close enough to be a typo.
 */
public final class Spelling {
    /**
     * datatrove's argument names that Sluice's job files spell differently, each with the names it may have
     * here (the one the step takes is meant: datatrove's writers and stats blocks both say output_folder).
     */
    private static final Map<String, List<String>> DATATROVE_NAMES = Map.ofEntries(
            Map.entry("output_folder", List.of("output", "path")), Map.entry("input_folder", List.of("input")),
            Map.entry("data_folder", List.of("path", "input")), Map.entry("glob_pattern", List.of("glob")),
            Map.entry("groups_to_compute", List.of("groups")), Map.entry("regex_exp", List.of("regex")),
            Map.entry("extra_domains", List.of("banned_domains")), Map.entry("extra_urls", List.of("banned_urls")),
            Map.entry("save_cluster_id", List.of("cluster_metadata")), Map.entry("top_k_config", List.of("top_k")),
            Map.entry("use_64bit_hashes", List.of("precision")), Map.entry("hash_config", List.of("precision")),
            Map.entry("exclusion_writer", List.of("exclusion_output")), Map.entry("load_cluster_ids", List.of("cluster_metadata")),
            Map.entry("load_cluster_sizes", List.of("cluster_metadata")), Map.entry("save_cluster_size", List.of("cluster_metadata")),
            // SlurmPipelineExecutor's workers is the array's %N throttle
            Map.entry("workers", List.of("array_parallelism")),
            Map.entry("randomize_start", List.of("randomize_start_duration")),
            // datatrove's pipeline classes, as a job file's step names
            Map.entry("JsonlReader", List.of("read_jsonl")), Map.entry("JsonlWriter", List.of("write_jsonl")),
            Map.entry("RegexFilter", List.of("regex_filter")),
            Map.entry("SamplerFilter", List.of("sampler")), Map.entry("URLFilter", List.of("url_filter")),
            Map.entry("LanguageFilter", List.of("language_filter")),
            Map.entry("GopherQualityFilter", List.of("gopher_quality")),
            Map.entry("GopherRepetitionFilter", List.of("gopher_repetition")),
            Map.entry("C4QualityFilter", List.of("c4_quality")), Map.entry("FineWebQualityFilter", List.of("fineweb_quality")),
            Map.entry("DocStats", List.of("doc_stats")), Map.entry("WordStats", List.of("word_stats")),
            Map.entry("LineStats", List.of("line_stats")), Map.entry("ParagraphStats", List.of("paragraph_stats")),
            Map.entry("SentenceStats", List.of("sentence_stats")), Map.entry("StatsMerger", List.of("merge_stats")),
            Map.entry("MinhashDedupSignature", List.of("minhash_signature")),
            Map.entry("MinhashDedupBuckets", List.of("minhash_buckets")),
            Map.entry("MinhashDedupCluster", List.of("minhash_cluster")),
            Map.entry("MinhashDedupFilter", List.of("minhash_filter")),
            Map.entry("MinhashBuildIndex", List.of("minhash_build_index")), Map.entry("PIIFormatter", List.of("pii_formatter")),
            Map.entry("SymbolLinesFormatter", List.of("symbol_lines_formatter")),
            // SlurmPipelineExecutor's arguments, as keys of the slurm: block
            Map.entry("mem_per_cpu_gb", List.of("mem_per_cpu")), Map.entry("pipeline", List.of("steps")));

    /** What else changes with the name. */
    private static final Map<String, String> RENAMED_NOTES = Map.of(
            "mem_per_cpu_gb", ", a size with its unit: 2G for datatrove's 2",
            "top_k_config", ", with 'top_k_groups' for its groups",
            "workers", ", the array's %N throttle; a job's workers are the threads of one JVM",
            "randomize_start", ", in seconds");

    /** What Sluice does instead of several of datatrove's options, said once for each. */
    private static final String OWN_PROGRESS = "run shows a progress line of its own";
    private static final String CHAINED_ARRAYS = "arrays split at max_array_size are chained one after another (afterany),"
            + " each throttled by array_parallelism";
    private static final String ENV_COMMAND = "give env_command (source venv/bin/activate, module load java/21) in the"
            + " slurm: block";
    private static final String JOB_OR_STAGE_KEYS = "tasks and workers are keys of the job or of a stage";

    /** datatrove's options that Sluice does not take, with what it does instead. */
    private static final Map<String, String> DATATROVE_OPTIONS_NOT_TAKEN = Map.ofEntries(
            Map.entry("paths_file", "give the folder as 'path' and choose files with 'glob'"),
            Map.entry("shuffle_files", "files are dealt in sorted order, so that the MinHash signature and filter stages"
                    + " read the same documents"),
            Map.entry("file_progress", OWN_PROGRESS), Map.entry("doc_progress", OWN_PROGRESS), Map.entry("progress", OWN_PROGRESS),
            Map.entry("max_array_launch_parallel", CHAINED_ARRAYS), Map.entry("stagger_max_array_jobs", CHAINED_ARRAYS),
            // at the top level local_tasks picks the ranks of `launcher run`: not datatrove's ranks per array element
            Map.entry("tasks_per_job", "the ranks each array element runs are slurm.local_tasks"),
            Map.entry("run_on_dependency_fail", "a stage runs only once the stages it depends on succeeded (afterok)"),
            Map.entry("depends_job_id", "stages wait for each other by depends:; submit chains their Slurm jobs"),
            Map.entry("condaenv", ENV_COMMAND), Map.entry("venv_path", ENV_COMMAND),
            Map.entry("requeue_signals", "requeue: true requeues an element on USR1 near its time limit"),
            Map.entry("use_integrated_lists", "Sluice bundles no block lists: give banned_domains, banned_urls,"
                    + " banned_words (or their _file keys)"),
            Map.entry("adapter", "a Python function; 'text_key', 'id_key' and 'default_metadata' cover the usual cases"),
            Map.entry("expand_metadata", "documents are written with a 'metadata' object, datatrove's default"),
            Map.entry("compression", "readers find each file's compression from its name and first bytes; only writers"
                    + " take it"),
            Map.entry("backend", "language_filter runs lingua, whose models are in the jar: nothing is downloaded, and"
                    + " 'accuracy' picks its mode"),
            Map.entry("job_name", "each stage's array job is named <job name>.<stage>"),
            Map.entry("config", "MinhashConfig's fields (n_grams, num_buckets, hashes_per_bucket, seed, precision,"
                    + " hash_fc) go straight in the step or the minhash: block"),
            Map.entry("slurm_logs_folder", "Slurm's output files go to <logging_dir>/<stage>/slurm/slurm_logs/"),
            Map.entry("srun_args", "ranks run without srun; give sbatch options in sbatch_args"),
            Map.entry("mem", "give mem_per_cpu, or sbatch_args: {mem: 4G} for memory per node"),
            Map.entry("tasks", JOB_OR_STAGE_KEYS), Map.entry("workers", JOB_OR_STAGE_KEYS),
            Map.entry("WarcReader", "Sluice reads JSONL; extract text from WARC files with datatrove first"),
            Map.entry("ParquetReader", "Sluice reads JSONL (plain, .gz, .zst)"),
            Map.entry("HuggingFaceDatasetReader", "Sluice reads JSONL (plain, .gz, .zst)"),
            Map.entry("Trafilatura", "Sluice reads extracted text as JSONL; extract with datatrove first"),
            Map.entry("C4BadWordsFilter", "not implemented; regex_filter with a word list is the nearest"),
            Map.entry("FTFYFormatter", "not implemented; fix the text's encoding with ftfy before"),
            Map.entry("LambdaFilter", "a Python function; regex_filter, length_filter and url_filter cover the usual cases"),
            Map.entry("TokensCounter", "not implemented; documents with token_count metadata get __tokens histograms"));

    private Spelling() {
    }

    /**
     * The name datatrove's {@code word} has here, if {@code known} holds it; else what Sluice does instead of
     * a datatrove option it does not take; else {@code " (did you mean
     * 'NAME'?)"} for the known name nearest to {@code word} (edit distance, an adjacent swap counting once)
     * if it is within a third of the word's length; else "".
     */
    public static String didYouMean(String word, Iterable<String> known) {
        for (String ours : DATATROVE_NAMES.getOrDefault(word, List.of())) {
            for (String k : known) {
                if (k.equals(ours)) {
                    return " (datatrove's name; here it is '" + ours + "'" + RENAMED_NOTES.getOrDefault(word, "") + ")";
                }
            }
        }
        String notTaken = DATATROVE_OPTIONS_NOT_TAKEN.get(word);
        if (notTaken != null) {
            boolean step = Character.isUpperCase(word.charAt(0)); // datatrove's class names
            return (step ? " (datatrove's step, not in Sluice: " : " (datatrove's option, not taken here: ") + notTaken + ")";
        }
        String best = nearest(word, known);
        return best != null && !best.equalsIgnoreCase(word) ? " (did you mean '" + best + "'?)" : "";
    }

    /**
     * The known name nearest to {@code word}, ignoring case (edit distance, an adjacent swap counting once), if it is
     * within a third of the word's length and not the word itself; else null. A name differing in case only is nearest.
     */
    public static String nearest(String word, Iterable<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(word.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && !best.equals(word) && bestDistance <= Math.max(1, word.length() / 3) ? best : null;
    }

    /** {@code " (given as datatrove's 'NAME')"} when {@code given} holds datatrove's name for {@code key}, else "". */
    static String datatroveSpellingOf(String key, Set<String> given) {
        for (String name : given) {
            if (DATATROVE_NAMES.getOrDefault(name, List.of()).contains(key)) {
                return " (given as datatrove's '" + name + "')";
            }
        }
        return "";
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
