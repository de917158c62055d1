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
import java.util.Collections;
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

    /**
     * A check of the {@code slurm:} blocks, which the worker keeps as written and never reads: the launcher's,
     * called as the file is read so that their problems are told with the others.
     */
    @FunctionalInterface
    public interface SlurmCheck {
        /** No check: a compute node runs the job the launcher has checked. */
        SlurmCheck NONE = (where, jobBlock, stageKeys, problems) -> { };

        /**
         * Notes the problems of the job's block ({@code stageKeys} null) or of a stage's own keys over the job's
         * block ({@code jobBlock} null when that has problems of its own, so they are not told again).
         */
        void check(String where, Map<String, Object> jobBlock, Map<String, Object> stageKeys, Problems problems);
    }

    /** The job file, its slurm: blocks unchecked (a compute node's {@code job.json}, or a local run's tests). */
    public static Job load(Path file) {
        return load(file, SlurmCheck.NONE);
    }

    public static Job load(Path file, SlurmCheck slurmCheck) {
        Map<String, Object> root;
        KeyLines lines = new KeyLines();
        try {
            root = readTree(file, lines);
        } catch (NoSuchFileException e) {
            throw new JobException(file + ": job file not found");
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y && y.getProblemMark() != null) {
                // glob: *.jsonl.gz, unquoted, is read as a reference to an anchor, and SnakeYAML's words do not say so
                boolean alias = "while scanning an alias".equals(y.getContext());
                throw new JobException(file + ":" + (y.getProblemMark().getLine() + 1) + ": not valid YAML: " + y.getProblem()
                        + (alias ? " (a value starting with * is a YAML alias: quote it, as in glob: \"*.jsonl.gz\")" : ""));
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
        String fileName = file.getFileName().toString();
        Object written = root.get(PLACES);
        // top-level keys starting with "x-" hold anchors for the rest of the file (as in docker compose files)
        root.keySet().removeIf(k -> k.startsWith("x-"));
        Job job;
        try {
            job = parse(fileName, root, slurmCheck);
        } catch (JobException e) {
            throw JobException.of(e.problems().stream().map(p -> lines.locate(fileName, p)).toList());
        }
        List<Job.Stage> stages = job.stages().stream().map(s -> {
            List<?> places = written instanceof Map<?, ?> m && m.get(s.name()) instanceof List<?> l && l.size() == s.steps().size()
                    ? l : null;
            List<Job.StepSpec> steps = new ArrayList<>();
            for (int i = 0; i < s.steps().size(); i++) {
                Job.StepSpec spec = s.steps().get(i);
                String place = places != null && places.get(i) instanceof String w ? w : lines.place(fileName, spec.where());
                steps.add(new Job.StepSpec(spec.type(), spec.args(), place));
            }
            return new Job.Stage(s.name(), s.tasks(), s.workers(), s.depends(), List.copyOf(steps));
        }).toList();
        return new Job(job.name(), job.loggingDir(), job.tasks(), job.workers(), job.skipCompleted(),
                job.randomizeStartDuration(), job.localTasks(), job.localRankOffset(), stages, job.slurm(), job.stageSlurm(),
                lines.placeOfKey(fileName, "logging_dir"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readTree(Path file, KeyLines lines) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Object tree;
        try (JsonParser parser = YAML.createParser(bytes)) { // YAML is a superset of JSON
            parser.nextToken();
            tree = parser.currentToken() == null ? null : new TreeReader(file, (YAMLParser) parser, lines).value("");
        }
        if (!(tree instanceof Map)) {
            throw new JobException(file + ": a job file must be a mapping of keys (name, stages, ...)");
        }
        Map<String, Object> root = (Map<String, Object>) tree;
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
        private final KeyLines lines;
        private final Map<String, Object> anchors = new HashMap<>();
        /** Per anchored value, where in the file it is written (for the aliases and merge keys that name it). */
        private final Map<Object, String> pathOfValue = new java.util.IdentityHashMap<>();
        /** Per anchor, the number of values it stands for, its nested aliases expanded. */
        private final Map<String, Long> anchorSizes = new HashMap<>();
        /** Anchors of the mappings and lists being read, which an alias inside them cannot name. */
        private final Set<String> open = new HashSet<>();
        private long values;
        /** The number of values {@link #value} last returned stands for. */
        private long size;

        TreeReader(Path file, YAMLParser parser, KeyLines lines) {
            this.file = file;
            this.parser = parser;
            this.lines = lines;
        }

        private String at() {
            return file + ":" + parser.currentLocation().getLineNr() + ": ";
        }

        /** Whether the file anchors {@code name} anywhere, on a single value too (which the parser does not pass on). */
        private boolean anchorNamed(String name) {
            try {
                return java.util.regex.Pattern.compile("&" + java.util.regex.Pattern.quote(name) + "(\\s|$)", java.util.regex.Pattern.MULTILINE)
                        .matcher(Files.readString(file)).find();
            } catch (IOException e) {
                return true; // read a moment ago: say no more than before
            }
        }

        /** The value at the parser's current token, found at {@code path} in the tree ({@link KeyLines}); sets {@link #size}. */
        Object value(String path) throws IOException {
            if (parser.isCurrentAlias()) {
                String name = parser.getText();
                if (open.contains(name)) {
                    throw new JobException(at() + "alias *" + name + " is inside the mapping or list it names");
                }
                if (!anchors.containsKey(name)) {
                    // the YAML parser does not pass on anchors of single values (&name value), only of mappings and lists
                    throw new JobException(at() + "alias *" + name + " names no mapping or list anchored before it"
                            + (anchors.isEmpty() ? "" : " (those anchored: " + String.join(", ", new java.util.TreeSet<>(anchors.keySet())) + ")")
                            + "; an anchor on a single value (&" + name + " /some/path) is not seen by the YAML reader, so"
                            + " give the value itself there, or anchor a mapping (&" + name + " {...}) or a list"
                            + (anchorNamed(name) ? "" : "; if *" + name + " is text (a glob), quote it: \"*" + name + "\""));
                }
                size = anchorSizes.get(name);
                count(size);
                lines.alias(path, pathOfValue.get(anchors.get(name))); // a key in it is told at the line it is written on
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
                        int line = parser.currentTokenLocation().getLineNr();
                        String keyPath = path.isEmpty() ? key : path + "." + key;
                        lines.put(keyPath, line);
                        parser.nextToken();
                        Object v = value(keyPath);
                        total += size;
                        if (key.equals("<<")) {
                            merge = v;
                            mergeLine = line;
                        } else {
                            map.put(key, v);
                        }
                    }
                    if (mergeLine > 0) {
                        merge(map, merge, mergeLine, path);
                    }
                    value = map;
                }
                case START_ARRAY -> {
                    List<Object> list = new ArrayList<>();
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        String itemPath = path + "[" + list.size() + "]";
                        lines.put(itemPath, parser.currentTokenLocation().getLineNr());
                        list.add(value(itemPath));
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
                pathOfValue.put(value, path);
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
        private void merge(Map<String, Object> map, Object merge, int line, String path) {
            List<?> sources = merge instanceof List<?> l ? l : java.util.Collections.singletonList(merge);
            for (Object source : sources) { // the first listed wins over later ones, as in YAML's merge
                if (!(source instanceof Map<?, ?>)) {
                    throw new JobException(file + ":" + line + ": '<<' (a YAML merge key) takes a mapping or a list"
                            + " of mappings, such as <<: *defaults or <<: [*a, *b]; got " + describe(source));
                }
                String from = pathOfValue.get(source);
                for (Map.Entry<String, Object> e : ((Map<String, Object>) source).entrySet()) {
                    if (!map.containsKey(e.getKey())) { // a key set to null (~) is set, and stays null
                        map.put(e.getKey(), e.getValue());
                        String keyPath = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                        // at the line the key is written on, in the mapping the merge key names; else the '<<' line
                        Integer written = from == null ? null : lines.line(from.isEmpty() ? e.getKey() : from + "." + e.getKey());
                        lines.put(keyPath, written != null ? written : line);
                        if (from != null) {
                            lines.alias(keyPath, from.isEmpty() ? e.getKey() : from + "." + e.getKey());
                        }
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
    public static Job parse(String fileName, Map<String, Object> root, SlurmCheck slurmCheck) {
        Problems problems = new Problems();
        StepArgs top = new StepArgs(fileName, root);
        String name = problems.get(() -> top.string("name", "job"), "job");
        String defaultLogs = "out/" + name + "/logs";
        Path loggingDir = problems.get(() -> top.optionalPath("logging_dir", defaultLogs).toAbsolutePath().normalize(),
                Path.of(defaultLogs).toAbsolutePath().normalize());
        int tasks = problems.get(() -> taskCount(top, "tasks", top.integer("tasks", 1)), 1);
        int workers = problems.get(() -> workers(top, -1), -1);
        boolean skipCompleted = problems.get(() -> {
            // read as false, as any flag's null is, it would run every completed rank again over its outputs
            top.refuseNull(": write true or false", "skip_completed");
            return top.bool("skip_completed", true);
        }, true);
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
            problems.add(fileName + ": 'stages' is " + (stageList == null ? "required" : "empty") + ": a list of stages,"
                    + " each with a name and steps");
        }
        int slurmBefore = problems.size();
        slurmCheck.check(fileName + ": slurm", slurmMap == null ? Map.of() : slurmMap, null, problems);
        // a stage's slurm: keys go over the job's; over a job block with problems they would repeat its problems
        Map<String, Object> slurmUnder = problems.size() == slurmBefore ? slurmMap : null;
        int topLevel = problems.size();
        List<Job.Stage> stages = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> unread = new HashSet<>(); // stages whose problems left nothing to run, which a later depends may name
        Map<String, String> blocks = new HashMap<>();
        Map<String, Map<String, Object>> stageSlurm = new LinkedHashMap<>();
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
            if (ownSlurm instanceof Map<?, ?> ownKeys) {
                slurmCheck.check(where + " (" + m.get("name") + ")", slurmUnder, (Map<String, Object>) ownKeys, problems);
                // a minhash: block's four stages alike
                expanded.forEach(s -> stageSlurm.put(s.name(), Collections.unmodifiableMap((Map<String, Object>) ownKeys)));
            } else if (ownSlurm != null) {
                problems.add(where + " (" + m.get("name") + "): 'slurm' must be a mapping of the slurm: block's keys,"
                        + " such as {time: '12:00:00'}");
            }
            for (Job.Stage s : expanded) {
                List<String> depends = s.depends() == null ? null : new ArrayList<>();
                for (String dep : s.depends() == null ? List.<String>of() : s.depends()) {
                    // a block of stages (minhash:) is waited for as its last stage
                    String stage = blocks.getOrDefault(dep, dep);
                    if (names.contains(stage)) {
                        depends.add(stage);
                    } else if (!unread.contains(dep)) {
                        problems.add(where + " (" + s.name() + "): 'depends' names '" + dep
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
                List.copyOf(stages), slurmMap == null ? Map.of() : Collections.unmodifiableMap(slurmMap),
                Collections.unmodifiableMap(stageSlurm), fileName + ": logging_dir");
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

    /** The most ranks a stage may have: Slurm numbers no more array elements (its MaxArraySize is at most 4000001). */
    public static final int MAX_TASKS = 4_000_000;

    /**
     * A stage's rank count: {@link #positive}, and at most {@link #MAX_TASKS}; a zero too many (tasks: 100000000)
     * ran the launcher out of memory planning the ranks.
     */
    public static int taskCount(StepArgs args, String key, long v) {
        int n = positive(args, key, v);
        if (n > MAX_TASKS) {
            throw args.error(key, "is " + n + ", more ranks than Slurm can number (at most " + MAX_TASKS + "); a rank usually"
                    + " reads a few files or a few hundred MB");
        }
        return n;
    }

    public static int positive(StepArgs args, String key, long v) {
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
     * In a resolved job, per stage its steps' places in the job file it was resolved from ("job.yaml:8: stages[0] ..."):
     * the compute nodes' messages then name the lines the user wrote, not job.json's. An "x-" key, which readers of job
     * files leave out.
     */
    private static final String PLACES = "x-sluice-step-places";

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
            Map<String, Object> ownSlurm = job.stageSlurm().get(s.name());
            if (ownSlurm != null) {
                st.put("slurm", ownSlurm);
            }
            stages.add(st);
        }
        root.put("stages", stages);
        // each step's place in the job file the user wrote, for the messages of the compute nodes, which read this file
        Map<String, Object> places = new LinkedHashMap<>();
        for (Job.Stage s : job.stages()) {
            places.put(s.name(), s.steps().stream().map(Job.StepSpec::where).toList());
        }
        root.put(PLACES, places);
        if (!job.slurm().isEmpty()) {
            root.put("slurm", job.slurm()); // as written: the launcher reads it
        }
        AtomicFile.writeShared(file, JSON.writeValueAsBytes(root)); // every stage's processes write job.json
    }
}
