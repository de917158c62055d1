package io.sluice.job;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.sluice.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a job file (YAML, or the JSON that {@link #writeResolved} writes) into a {@link Job}, checking
 * every key: an unknown or mistyped key is a {@link JobException} naming the file, where in it, and
 * what is allowed. Every step is built once here, so step arguments are checked before any work.
 */
public final class JobFile {
    /** Strict about duplicate keys: YAML lets the last one win, so {@code compression: gzip, compression: none} passed unseen. */
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JobFile() {
    }

    public static Job load(Path file) {
        Map<String, Object> root;
        try {
            root = readTree(file);
        } catch (NoSuchFileException e) {
            throw new JobException(file + ": job file not found");
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y && y.getProblemMark() != null) {
                throw new JobException(file + ":" + (y.getProblemMark().getLine() + 1) + ": not valid YAML: " + y.getProblem());
            }
            Matcher duplicate = DUPLICATE.matcher(e.getOriginalMessage());
            if (duplicate.matches() && e.getLocation() != null) {
                throw new JobException(file + ":" + e.getLocation().getLineNr() + ": key '" + duplicate.group(1)
                        + "' is given twice in the same mapping; keep one");
            }
            throw new JobException(file + ": not valid YAML/JSON: " + e.getOriginalMessage().lines().findFirst().orElse("")
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException e) {
            throw new JobException(file + ": cannot read: " + e.getMessage());
        }
        return parse(file.getFileName().toString(), root);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readTree(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Object tree;
        try (JsonParser parser = YAML.createParser(bytes)) { // YAML is a superset of JSON
            parser.nextToken();
            tree = parser.currentToken() == null ? null : new TreeReader(file, (YAMLParser) parser).value();
        }
        if (!(tree instanceof Map)) {
            throw new JobException(file + ": a job file must be a mapping of keys (name, stages, ...)");
        }
        Map<String, Object> root = (Map<String, Object>) tree;
        // top-level keys starting with "x-" hold anchors for the rest of the file (as in docker compose files)
        root.keySet().removeIf(k -> k.startsWith("x-"));
        return root;
    }

    /**
     * Reads a job file's tree with YAML's aliases ({@code *name}) replaced by the mapping or list their
     * anchor ({@code &name}) names (Jackson's own tree reading gave an alias as the string "name", so that
     * {@code path: *out} was read as the path "out"), and YAML's merge keys applied ({@code <<: *defaults},
     * or a list of aliases: the aliased mappings' entries that the mapping does not set itself, the first
     * listed winning). Aliased values are shared, not copied; the values they stand for are counted, so that
     * a few lines of nested aliases (YAML's "billion laughs") are refused rather than filling the heap
     * wherever the tree is walked.
     */
    private static final class TreeReader {
        /** Far more values than any job file holds, far fewer than would strain the launcher's heap. */
        static final long MAX_VALUES = 1_000_000;

        private final Path file;
        private final YAMLParser parser;
        private final Map<String, Object> anchors = new HashMap<>();
        /** Per anchor, the number of values it stands for, its nested aliases expanded. */
        private final Map<String, Long> anchorSizes = new HashMap<>();
        /** Anchors of the mappings and lists being read, which an alias inside them cannot name. */
        private final Set<String> open = new HashSet<>();
        private long values;
        /** The number of values {@link #value} last returned stands for. */
        private long size;

        TreeReader(Path file, YAMLParser parser) {
            this.file = file;
            this.parser = parser;
        }

        private String at() {
            return file + ":" + parser.currentLocation().getLineNr() + ": ";
        }

        /** The value at the parser's current token; sets {@link #size}. */
        Object value() throws IOException {
            if (parser.isCurrentAlias()) {
                String name = parser.getText();
                if (open.contains(name)) {
                    throw new JobException(at() + "alias *" + name + " is inside the mapping or list it names");
                }
                if (!anchors.containsKey(name)) {
                    // the YAML parser does not pass on anchors of single values (&name value), only of mappings and lists
                    throw new JobException(at() + "alias *" + name + " names no anchor before it; anchors are read on"
                            + " mappings and lists (&" + name + " {...}, &" + name + " [...]), not on single values");
                }
                size = anchorSizes.get(name);
                count(size);
                return anchors.get(name);
            }
            count(1); // this value; a mapping's or list's values count as they are read
            String anchor = parser.getCurrentAnchor();
            if (anchor != null) {
                open.add(anchor);
            }
            long total = 1;
            Object value;
            switch (parser.currentToken()) {
                case START_OBJECT -> {
                    Map<String, Object> map = new LinkedHashMap<>();
                    Object merge = null;
                    int mergeLine = 0;
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String key = parser.currentName();
                        int line = parser.currentLocation().getLineNr();
                        parser.nextToken();
                        Object v = value();
                        total += size;
                        if (key.equals("<<")) {
                            merge = v;
                            mergeLine = line;
                        } else {
                            map.put(key, v);
                        }
                    }
                    if (mergeLine > 0) {
                        merge(map, merge, mergeLine);
                    }
                    value = map;
                }
                case START_ARRAY -> {
                    List<Object> list = new ArrayList<>();
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        list.add(value());
                        total += size;
                    }
                    value = list;
                }
                case VALUE_NUMBER_INT -> value = parser.getNumberValue();
                case VALUE_NUMBER_FLOAT -> value = parser.getDoubleValue();
                case VALUE_TRUE -> value = Boolean.TRUE;
                case VALUE_FALSE -> value = Boolean.FALSE;
                case VALUE_NULL -> value = null;
                default -> value = parser.getText();
            }
            if (anchor != null) {
                open.remove(anchor);
                anchors.put(anchor, value);
                anchorSizes.put(anchor, total);
            }
            size = total;
            return value;
        }

        private void count(long more) {
            values += more;
            if (values > MAX_VALUES) {
                throw new JobException(at() + "the job file's aliases stand for more than " + MAX_VALUES
                        + " values; nested aliases multiply (*a in a list aliased ten times is ten copies of it)");
            }
        }

        /** Adds to {@code map} the entries of the merge key's mappings that it does not set itself. */
        @SuppressWarnings("unchecked")
        private void merge(Map<String, Object> map, Object merge, int line) {
            List<?> sources = merge instanceof List<?> l ? l : java.util.Collections.singletonList(merge);
            for (Object source : sources) { // the first listed wins over later ones, as in YAML's merge
                if (!(source instanceof Map<?, ?>)) {
                    throw new JobException(file + ":" + line + ": '<<' (a YAML merge key) takes a mapping or a list"
                            + " of mappings, such as <<: *defaults or <<: [*a, *b]; got " + describe(source));
                }
                for (Map.Entry<String, Object> e : ((Map<String, Object>) source).entrySet()) {
                    if (!map.containsKey(e.getKey())) { // a key set to null (~) is set, and stays null
                        map.put(e.getKey(), e.getValue());
                    }
                }
            }
        }

        private static String describe(Object v) {
            if (v == null) {
                return "nothing";
            }
            return v instanceof List<?> ? "a list of " + ((List<?>) v).size() + " values" : "'" + v + "'";
        }
    }

    /**
     * Builds a job from an already parsed tree; {@code fileName} is used in messages. Every problem of its keys,
     * its stages' and its steps' is told at once.
     */
    @SuppressWarnings("unchecked")
    public static Job parse(String fileName, Map<String, Object> root) {
        Problems problems = new Problems();
        StepArgs top = new StepArgs(fileName, root);
        String name = problems.get(() -> top.string("name", "job"), "job");
        String defaultLogs = "out/" + name + "/logs";
        Path loggingDir = problems.get(() -> {
            String dir = top.string("logging_dir", defaultLogs);
            try {
                return Path.of(dir).toAbsolutePath().normalize();
            } catch (java.nio.file.InvalidPathException e) { // a NUL: java.nio named the path, not the key
                throw top.error("logging_dir", "is no path ('" + dir.replace('\0', '?') + "'): " + e.getReason());
            }
        }, Path.of(defaultLogs).toAbsolutePath().normalize());
        int tasks = problems.get(() -> positive(top, "tasks", top.integer("tasks", 1)), 1);
        int workers = problems.get(() -> workers(top, -1), -1);
        boolean skipCompleted = problems.get(() -> top.bool("skip_completed", true), true);
        double randomize = problems.get(() -> top.number("randomize_start_duration", 0), 0.0);
        long localTasksGiven = problems.get(() -> top.integer("local_tasks", -1), -1L);
        long localRankOffset = problems.get(() -> top.integer("local_rank_offset", 0), 0L);
        if (localTasksGiven == 0 || localTasksGiven < -1) {
            problems.add(top.error("local_tasks", "must be at least 1 (the ranks this run takes), or -1 for all; got "
                    + localTasksGiven + ", which would run nothing").getMessage());
        }
        // kept as longs until checked: past 32 bits a cast wrapped round (more ranks than any stage has is all of them)
        int localTasks = (int) Math.max(-1, Math.min(localTasksGiven, Integer.MAX_VALUE));
        int before = problems.size();
        List<Object> stageList = problems.get(() -> list(top, "stages"), null);
        boolean stagesRead = problems.size() == before;
        Map<String, Object> slurmMap = problems.get(() -> top.map("slurm"), null);
        before = problems.size();
        problems.check(top::requireAllUsed);
        // an unknown key is likely 'stages' misspelt, and names it better than "'stages' is required" would
        if ((stageList == null || stageList.isEmpty()) && stagesRead && problems.size() == before) {
            problems.add(fileName + ": 'stages' is required: a list of stages, each with a name and steps");
        }
        int slurmBefore = problems.size();
        Job.SlurmOptions slurm = slurmOptions(fileName + ": slurm", slurmMap, problems);
        // a stage's slurm: keys go over the job's; over a job block with problems they would repeat its problems
        Map<String, Object> slurmUnder = problems.size() == slurmBefore ? slurmMap : null;
        int topLevel = problems.size();
        List<Job.Stage> stages = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> unread = new HashSet<>(); // stages whose problems left nothing to run, which a later depends may name
        Map<String, String> blocks = new HashMap<>();
        Map<String, Job.SlurmOptions> stageSlurm = new LinkedHashMap<>();
        for (int i = 0; stageList != null && i < stageList.size(); i++) {
            String where = fileName + ": stages[" + i + "]";
            if (!(stageList.get(i) instanceof Map<?, ?> m)) {
                problems.add(where + ": a stage must be a mapping with 'name' and 'steps'");
                continue;
            }
            Map<String, Object> stageMap = new LinkedHashMap<>((Map<String, Object>) m);
            Object ownSlurm = stageMap.remove("slurm");
            int stageBefore = problems.size();
            List<Job.Stage> expanded = StageExpander.expand(where, stageMap, tasks, workers, problems);
            boolean stageRight = problems.size() == stageBefore;
            if (expanded.isEmpty() && m.get("name") instanceof String unreadName) {
                unread.add(unreadName);
                if (m.containsKey("minhash")) { // a later stage may wait for the block's last stage by its name
                    StageExpander.MINHASH_STAGES.forEach(suffix -> unread.add(unreadName + suffix));
                }
            }
            if (ownSlurm != null) {
                Job.SlurmOptions options = stageSlurmOptions(where + " (" + m.get("name") + ")", slurmUnder, ownSlurm, problems);
                expanded.forEach(s -> stageSlurm.put(s.name(), options)); // a minhash: block's four stages alike
            }
            for (Job.Stage s : expanded) {
                List<String> depends = s.depends() == null ? null : new ArrayList<>();
                for (String dep : s.depends() == null ? List.<String>of() : s.depends()) {
                    // a block of stages (minhash:) is waited for as its last stage
                    String stage = blocks.getOrDefault(dep, dep);
                    if (names.contains(stage)) {
                        depends.add(stage);
                    } else if (!unread.contains(dep)) {
                        problems.add(where + " (" + s.name() + "): depends on '" + dep
                                + "', which is not an earlier stage; earlier stages: " + names);
                    }
                }
                if (!names.add(s.name()) && !s.name().isEmpty()) {
                    problems.add(where + ": stage name '" + s.name() + "' is used twice");
                }
                stages.add(new Job.Stage(s.name(), s.tasks(), s.workers(), depends == null ? null : List.copyOf(depends), s.steps()));
                checkSteps(s, stageRight, problems);
            }
            if (expanded.size() > 1 && m.get("name") instanceof String block && !names.contains(block)) {
                blocks.put(block, expanded.getLast().name());
            }
        }
        int mostTasks = stages.stream().mapToInt(Job.Stage::tasks).max().orElse(0);
        if (localTasks >= 0 && !stages.isEmpty() && (localRankOffset < 0 || localRankOffset >= mostTasks)) {
            // told with the job's other keys, where it is in the file
            problems.add(topLevel, top.error("local_rank_offset", "must be from 0 to " + (mostTasks - 1)
                    + " (the job's largest stage has " + mostTasks + " tasks), got " + localRankOffset
                    + ": no stage would have a rank to run").getMessage());
        }
        problems.throwIfAny();
        return new Job(name, loggingDir, tasks, workers, skipCompleted, randomize, localTasks, (int) localRankOffset,
                List.copyOf(stages), slurm, Map.copyOf(stageSlurm));
    }

    /**
     * Builds every step of a stage once, so that its arguments, its place in the stage and what it needs of the
     * stage ({@link io.sluice.pipeline.Step#stageProblem}) are checked now rather than on a compute node. What
     * a step needs of its stage is checked once the stage's keys and steps are all right.
     */
    private static void checkSteps(Job.Stage s, boolean stageRight, Problems problems) {
        List<io.sluice.pipeline.Step> steps = new ArrayList<>();
        int before = problems.size();
        for (int i = 0; i < s.steps().size(); i++) {
            Job.StepSpec spec = s.steps().get(i);
            io.sluice.pipeline.Step step = problems.get(() -> StepRegistry.create(spec), null);
            if (step == null) {
                continue;
            }
            steps.add(step);
            if (i > 0 && step instanceof io.sluice.pipeline.DocumentSource) {
                problems.add(spec.where() + ": '" + spec.type() + "' must be the first step of its stage");
            }
        }
        if (!stageRight || problems.size() > before) {
            return;
        }
        boolean reader = !steps.isEmpty() && steps.getFirst() instanceof io.sluice.pipeline.DocumentSource;
        for (int i = 0; i < steps.size(); i++) {
            String problem = steps.get(i).stageProblem(s.tasks(), reader && i > 0);
            if (problem != null) {
                problems.add(s.steps().get(i).where() + ": " + problem);
            }
        }
    }

    static int positive(StepArgs args, String key, long v) {
        if (v < 1 || v > Integer.MAX_VALUE) {
            throw args.error(key, "must be a positive integer, got " + v);
        }
        return (int) v;
    }

    /**
     * A job's or stage's {@code workers}. The local executor runs -1 as one rank per core, and took 0 and
     * -5 the same way, so a mistyped count silently used the whole machine (datatrove's Pool refuses them).
     */
    static int workers(StepArgs args, int dflt) {
        long v = args.integer("workers", dflt);
        if (v == 0 || v < -1 || v > Integer.MAX_VALUE) {
            throw args.error("workers", "must be at least 1 (the ranks run at the same time), or -1 for as many as"
                    + " the machine has cores; got " + v);
        }
        return (int) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(StepArgs args, String key) {
        Object v = args.rawValue(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?>)) {
            throw args.error(key, "must be a list");
        }
        return (List<Object>) v;
    }

    /**
     * A stage's {@code slurm:}: the job's block with the stage's keys over it ({@code sbatch_args} merged key by
     * key), checked as the job's is. {@code java_home} stays the job's: one build runs every stage.
     */
    @SuppressWarnings("unchecked")
    private static Job.SlurmOptions stageSlurmOptions(String where, Map<String, Object> jobSlurm, Object own,
                                                       Problems problems) {
        if (!(own instanceof Map<?, ?> ownMap)) {
            problems.add(where + ": 'slurm' must be a mapping of the slurm: block's keys, such as {time: '12:00:00'}");
            return null;
        }
        Map<String, Object> ownKeys = new LinkedHashMap<>((Map<String, Object>) ownMap);
        if (ownKeys.containsKey("java_home")) {
            problems.add(where + ".slurm: 'java_home' is set in the job's slurm: block only (one build runs every stage)");
            ownKeys.remove("java_home"); // its other keys' problems are told in the same round
        }
        Map<String, Object> merged = new LinkedHashMap<>(jobSlurm == null ? Map.of() : jobSlurm);
        // the stage's memory replaces the job's in whichever form: sbatch takes one of --mem-per-cpu, --mem and
        // --mem-per-gpu, and a stage could not otherwise ask per CPU under a job's sbatch_args {mem: 64G}
        replaceJobs(merged, ownKeys, "mem_per_cpu", JobFile::isMemoryArg);
        for (String option : Job.SlurmOptions.SBATCH_OPTIONS) {
            // a key of the block may also be given in sbatch_args (as datatrove's users do): the stage's, in either
            // form, replaces the job's in both, or the two would be refused as given twice
            replaceJobs(merged, ownKeys, option.replace('-', '_'), k -> optionName(k).equals(option));
        }
        ownKeys.forEach((k, v) -> {
            if (k.equals("sbatch_args") && v instanceof Map<?, ?> args && merged.get(k) instanceof Map<?, ?> jobArgs) {
                Map<Object, Object> both = new LinkedHashMap<>(jobArgs);
                both.putAll(args);
                merged.put(k, both);
            } else {
                merged.put(k, v);
            }
        });
        return slurmOptions(where + ".slurm", merged, problems);
    }

    /**
     * When the stage's own keys give {@code key}, or an sbatch_args option {@code isOption} accepts, drops both
     * forms from the job's block in {@code merged}: the stage's replace them, whichever form each side used.
     */
    private static void replaceJobs(Map<String, Object> merged, Map<String, Object> ownKeys, String key,
                                    java.util.function.Predicate<Object> isOption) {
        boolean own = ownKeys.get(key) != null
                || (ownKeys.get("sbatch_args") instanceof Map<?, ?> ownArgs && ownArgs.keySet().stream().anyMatch(isOption));
        if (!own) {
            return;
        }
        merged.remove(key);
        if (merged.get("sbatch_args") instanceof Map<?, ?> jobArgs) {
            Map<Object, Object> rest = new LinkedHashMap<>(jobArgs);
            rest.keySet().removeIf(isOption);
            merged.put("sbatch_args", rest);
        }
    }

    /** An sbatch_args key as sbatch names the option: "--mem" and "mem" are the same. */
    private static String optionName(Object key) {
        String k = String.valueOf(key);
        return k.startsWith("--") ? k.substring(2) : k;
    }

    /** sbatch's memory options, with or without their dashes: sbatch takes only one of them. */
    private static boolean isMemoryArg(Object key) {
        String k = optionName(key);
        return k.equals("mem") || k.equals("mem-per-cpu") || k.equals("mem-per-gpu");
    }

    private static Job.SlurmOptions slurmOptions(String where, Map<String, Object> m, Problems problems) {
        StepArgs a = new StepArgs(where, m);
        int cpus = problems.get(() -> positive(a, "cpus_per_task", a.integer("cpus_per_task", 1)), 1);
        Map<String, Object> extra = problems.get(() -> a.map("sbatch_args"), null);
        Map<String, String> sbatchArgs = new LinkedHashMap<>();
        if (extra != null) {
            // "--mem" and "mem" are the same option: one spelling from here on
            extra.forEach((k, v) -> sbatchArgs.put(optionName(k), v == null ? "" : v.toString()));
        }
        Job.SlurmOptions o = new Job.SlurmOptions(
                problems.get(() -> a.string("partition", null), null),
                problems.get(() -> slurmTime(a), null),
                cpus,
                problems.get(() -> memPerCpu(a, m, sbatchArgs), null),
                problems.get(() -> positive(a, "local_tasks", a.integer("local_tasks", 1)), 1),
                problems.get(() -> inRange(a, "array_parallelism", a.integer("array_parallelism", 0), 0, Integer.MAX_VALUE), 0),
                problems.get(() -> positive(a, "max_array_size", a.integer("max_array_size", 1001)), 1001),
                problems.get(() -> a.bool("requeue", true), true),
                problems.get(() -> inRange(a, "requeue_grace_seconds", a.integer("requeue_grace_seconds", 120), 0, 65535), 120),
                problems.get(() -> a.string("env_command", null), null),
                problems.get(() -> a.string("qos", null), null),
                problems.get(() -> a.string("account", null), null),
                problems.get(() -> a.string("mail_type", null), null),
                problems.get(() -> a.string("mail_user", null), null),
                problems.get(() -> a.string("java_home", null), null),
                sbatchArgs);
        problems.check(a::requireAllUsed);
        return o;
    }

    /**
     * {@code time}, given to {@code sbatch --time} as it is (the launcher checks its form). An unquoted number is
     * refused: sbatch reads a bare number as minutes, so {@code time: 3600}, meant as seconds, asked for 60 hours.
     */
    private static String slurmTime(StepArgs a) {
        Object raw = a.raw().get("time");
        String time = a.string("time", null);
        if (!(raw instanceof Number) && a.raw().get("sbatch_args") instanceof Map<?, ?> args) {
            // the same limit given in sbatch_args (the launcher takes it as the block's)
            Object given = args.containsKey("time") ? args.get("time") : args.get("--time");
            if (given instanceof Number) {
                raw = given;
            }
        }
        if (raw instanceof Number n) {
            boolean minutes = n.doubleValue() >= 0 && n.doubleValue() == Math.rint(n.doubleValue()) && !(raw instanceof Double);
            throw a.error(a.raw().get("time") == raw ? "time" : "sbatch_args.time", "is a number (" + raw + "), " + (minutes
                    ? "which sbatch reads as minutes; write it as Slurm does, quoted: \"01:00:00\" for an hour, or \"" + raw
                            + "\" if you mean " + raw + " minutes"
                    : "not a Slurm time limit; write one, quoted: \"01:00:00\" for an hour, \"90\" for 90 minutes"));
        }
        return time;
    }

    /**
     * {@code mem_per_cpu}: 2G unless memory is asked for otherwise. sbatch refuses {@code --mem-per-cpu} beside
     * {@code --mem} or {@code --mem-per-gpu}, so with those in {@code sbatch_args}, or with
     * {@code mem_per_cpu: null}, there is none.
     */
    private static String memPerCpu(StepArgs a, Map<String, Object> slurm, Map<String, String> sbatchArgs) {
        String given = a.string("mem_per_cpu", null); // read first: a problem below must not leave it an unknown key
        List<String> memoryArgs = sbatchArgs.keySet().stream().filter(JobFile::isMemoryArg).toList();
        for (String k : memoryArgs) {
            long mb = MemorySize.megabytes(sbatchArgs.get(k), a.where() + ".sbatch_args." + k);
            // --mem=0 is all the node's memory (the worker's JVM then sizes its heap itself)
            if (!k.equals("mem-per-gpu") && !(k.equals("mem") && mb == 0)) {
                requireTaskMemory(a.where() + ".sbatch_args." + k, sbatchArgs.get(k), mb, !k.equals("mem"));
            }
        }
        if (given != null && !memoryArgs.isEmpty()) {
            throw a.error("mem_per_cpu", "cannot be given with sbatch_args' --" + memoryArgs.get(0)
                    + " (sbatch takes one of them); set mem_per_cpu: null");
        }
        if (given == null) {
            return (slurm != null && slurm.containsKey("mem_per_cpu")) || !memoryArgs.isEmpty() ? null : "2G";
        }
        requireTaskMemory(a.where() + ": 'mem_per_cpu'", given, MemorySize.megabytes(given, a.where() + ".mem_per_cpu"), true);
        return given;
    }

    /**
     * The least memory an array task may have: its worker JVM, decompression buffers and tables. sbatch
     * reads a size without a unit as megabytes, so datatrove's {@code mem_per_cpu_gb: 2} written as
     * {@code mem_per_cpu: 2} gave every task a few megabytes, and every task was killed.
     */
    static final long MIN_TASK_MEGABYTES = 256;

    private static void requireTaskMemory(String where, String given, long megabytes, boolean perCpu) {
        if (megabytes < MIN_TASK_MEGABYTES) {
            // per CPU: whatever cpus_per_task gives an array element, a stage's stats merge job has one CPU
            throw new JobException(where + " is '" + given + "', which sbatch reads as " + megabytes + "M "
                    + (perCpu ? "per CPU (a stage's stats merge job has one)" : "for each array task")
                    + "; a worker needs at least " + MIN_TASK_MEGABYTES + "M. Give the unit: 2G is two gigabytes");
        }
    }

    private static int inRange(StepArgs a, String key, long value, int min, int max) {
        if (value < min || value > max) {
            throw a.error(key, "must be from " + min + " to " + max + ", got " + value);
        }
        return (int) value;
    }

    /** The resolved job as JSON, so a compute node runs exactly what was submitted. */
    public static void writeResolved(Job job, Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("name", job.name());
        root.put("logging_dir", job.loggingDir().toString());
        root.put("tasks", job.tasks());
        root.put("workers", job.workers());
        root.put("skip_completed", job.skipCompleted());
        root.put("randomize_start_duration", job.randomizeStartDuration());
        root.put("local_tasks", job.localTasks());
        root.put("local_rank_offset", job.localRankOffset());
        List<Object> stages = new ArrayList<>();
        for (Job.Stage s : job.stages()) {
            Map<String, Object> st = new LinkedHashMap<>();
            st.put("name", s.name());
            st.put("tasks", s.tasks());
            st.put("workers", s.workers());
            st.put("depends", s.depends());
            List<Object> steps = new ArrayList<>();
            for (Job.StepSpec spec : s.steps()) {
                steps.add(Map.of(spec.type(), spec.args()));
            }
            st.put("steps", steps);
            Job.SlurmOptions own = job.stageSlurm().get(s.name());
            if (own != null) {
                st.put("slurm", slurmMap(own, true)); // over the job's block, read back, the same options
            }
            stages.add(st);
        }
        root.put("stages", stages);
        root.put("slurm", slurmMap(job.slurm(), false));
        AtomicFile.writeShared(file, JSON.writeValueAsBytes(root)); // every stage's processes write job.json
    }

    /**
     * The options as a slurm: block. A stage's is read back over the job's block: it names every key, null
     * ones too, or a stage's {@code partition: null} would come back as the job's partition.
     */
    private static Map<String, Object> slurmMap(Job.SlurmOptions o, boolean ofStage) {
        Map<String, Object> sl = new LinkedHashMap<>();
        put(sl, "partition", o.partition(), ofStage);
        put(sl, "time", o.time(), ofStage);
        sl.put("cpus_per_task", o.cpusPerTask());
        sl.put("mem_per_cpu", o.memPerCpu());
        sl.put("local_tasks", o.localTasks());
        sl.put("array_parallelism", o.arrayParallelism());
        sl.put("max_array_size", o.maxArraySize());
        sl.put("requeue", o.requeue());
        sl.put("requeue_grace_seconds", o.requeueGraceSeconds());
        put(sl, "env_command", o.envCommand(), ofStage);
        put(sl, "qos", o.qos(), ofStage);
        put(sl, "account", o.account(), ofStage);
        put(sl, "mail_type", o.mailType(), ofStage);
        put(sl, "mail_user", o.mailUser(), ofStage);
        if (!ofStage) {
            put(sl, "java_home", o.javaHome(), false);
        }
        if (!o.sbatchArgs().isEmpty()) {
            sl.put("sbatch_args", o.sbatchArgs());
        }
        return sl;
    }

    private static void put(Map<String, Object> m, String k, Object v, boolean evenNull) {
        if (v != null || evenNull) {
            m.put(k, v);
        }
    }
}
