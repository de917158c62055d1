package io.sluice.launcher.slurm;

import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import io.sluice.job.MemorySize;
import io.sluice.job.Problems;
import io.sluice.job.StepArgs;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A stage's {@code slurm:} options: the job's block with the stage's own keys over it, as datatrove gives each
 * executor its own (a longer time for one stage, more memory for another). The worker keeps the blocks as
 * written; they are read here, and checked with the rest of the job file ({@link #loadJob}).
 */
public record SlurmOptions(String partition, String time, int cpusPerTask, String memPerCpu,
                           int localTasks, int arrayParallelism, int maxArraySize, boolean requeue,
                           int requeueGraceSeconds, String envCommand, String qos, String account,
                           String mailType, String mailUser, String javaHome,
                           Map<String, String> sbatchArgs) {
    /**
     * The block's keys that are sbatch options too, as sbatch spells them (the block writes mail_type for
     * --mail-type): sbatch_args may give them instead, and then they count as the block's.
     */
    public static final List<String> SBATCH_OPTIONS = List.of("time", "partition", "qos", "account", "mail-type",
            "mail-user");

    /**
     * The least memory an array task may have: its worker JVM, decompression buffers and tables. sbatch
     * reads a size without a unit as megabytes, so datatrove's {@code mem_per_cpu_gb: 2} written as
     * {@code mem_per_cpu: 2} gave every task a few megabytes, and every task was killed.
     */
    static final long MIN_TASK_MEGABYTES = 256;

    /**
     * The job file with its slurm: blocks' keys checked, their problems told with the file's others (a local run,
     * status, cancel: what only sbatch would refuse does not stop them).
     */
    public static Job loadJob(Path file) {
        return JobFile.load(file, (where, jobBlock, stageKeys, problems) -> check(where, jobBlock, stageKeys, problems, false));
    }

    /** {@link #loadJob}, and what sbatch would refuse of the blocks' options too (validate, submit). */
    public static Job loadJobToSubmit(Path file) {
        return JobFile.load(file, (where, jobBlock, stageKeys, problems) -> check(where, jobBlock, stageKeys, problems, true));
    }

    /** The job's slurm: block (java_home is read here only: one build runs every stage). */
    public static SlurmOptions ofJob(Job job) {
        Problems problems = new Problems();
        SlurmOptions o = read("slurm", job.slurm(), problems);
        problems.throwIfAny(); // none: the block was checked as the job was loaded
        return o;
    }

    /** The options {@code stage} runs with: the job's, or the stage's own keys over them. */
    public static SlurmOptions of(Job job, Job.Stage stage) {
        Map<String, Object> own = job.stageSlurm().get(stage.name());
        if (own == null) {
            return ofJob(job);
        }
        Problems problems = new Problems();
        String where = "stage '" + stage.name() + "'";
        SlurmOptions o = read(where + ".slurm", merged(where, job.slurm(), own, problems), problems);
        problems.throwIfAny();
        return o;
    }

    /** Whether {@code stage} has a slurm: block of its own over the job's. */
    static boolean ownTo(Job job, Job.Stage stage) {
        return job.stageSlurm().containsKey(stage.name());
    }

    /** {@link JobFile.SlurmCheck}: reads the block as {@link #of} will, and builds its sbatch options, noting the problems. */
    private static void check(String where, Map<String, Object> jobBlock, Map<String, Object> stageKeys, Problems problems,
                              boolean sbatch) {
        String block = stageKeys == null ? where : where + ".slurm";
        Map<String, Object> m = stageKeys == null ? jobBlock : merged(where, jobBlock, stageKeys, problems);
        SlurmOptions o = read(block, m, problems);
        if (sbatch) {
            // also after a key's problem, which leaves that option out: the others' are told in the same round
            SbatchOptions.check(o, block + ".", problems);
        }
    }

    /**
     * A stage's block: the job's with the stage's keys over it ({@code sbatch_args} merged key by key).
     * {@code java_home} stays the job's: one build runs every stage.
     */
    private static Map<String, Object> merged(String where, Map<String, Object> jobBlock, Map<String, Object> stageKeys,
                                              Problems problems) {
        Map<String, Object> ownKeys = new LinkedHashMap<>(stageKeys);
        if (ownKeys.containsKey("java_home")) {
            problems.add(where + ".slurm: 'java_home' is set in the job's slurm: block only (one build runs every stage)");
            ownKeys.remove("java_home"); // its other keys' problems are told in the same round
        }
        Map<String, Object> merged = new LinkedHashMap<>(jobBlock == null ? Map.of() : jobBlock);
        // the stage's memory replaces the job's in whichever form: sbatch takes one of --mem-per-cpu, --mem and
        // --mem-per-gpu, and a stage could not otherwise ask per CPU under a job's sbatch_args {mem: 64G}
        replaceJobs(merged, ownKeys, "mem_per_cpu", SlurmOptions::isMemoryArg);
        for (String option : SBATCH_OPTIONS) {
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
        return merged;
    }

    /**
     * When the stage's own keys give {@code key}, or an sbatch_args option {@code isOption} accepts, drops both
     * forms from the job's block in {@code merged}: the stage's replace them, whichever form each side used.
     */
    private static void replaceJobs(Map<String, Object> merged, Map<String, Object> ownKeys, String key,
                                    Predicate<Object> isOption) {
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

    private static SlurmOptions read(String where, Map<String, Object> m, Problems problems) {
        StepArgs a = new StepArgs(where, m);
        int cpus = problems.get(() -> JobFile.positive(a, "cpus_per_task", a.integer("cpus_per_task", 1)), 1);
        Map<String, Object> extra = problems.get(() -> a.map("sbatch_args"), null);
        Map<String, String> sbatchArgs = new LinkedHashMap<>();
        if (extra != null) {
            // "--mem" and "mem" are the same option: one spelling from here on
            extra.forEach((k, v) -> sbatchArgs.put(optionName(k), v == null ? "" : v.toString()));
        }
        SlurmOptions o = new SlurmOptions(
                problems.get(() -> a.string("partition", null), null),
                problems.get(() -> time(a), null),
                cpus,
                problems.get(() -> memPerCpu(a, m, sbatchArgs), null),
                problems.get(() -> JobFile.positive(a, "local_tasks", a.integer("local_tasks", 1)), 1),
                problems.get(() -> inRange(a, "array_parallelism", a.integer("array_parallelism", 0), 0, Integer.MAX_VALUE), 0),
                problems.get(() -> JobFile.positive(a, "max_array_size", a.integer("max_array_size", 1001)), 1001),
                // after a problem, values that set off no check of their own (sbatch's checks run on all keys)
                problems.get(() -> a.bool("requeue", true), false),
                problems.get(() -> inRange(a, "requeue_grace_seconds", a.integer("requeue_grace_seconds", 120), 0, 65535), 0),
                problems.get(() -> a.string("env_command", null), null),
                problems.get(() -> a.string("qos", null), null),
                problems.get(() -> a.string("account", null), null),
                problems.get(() -> a.string("mail_type", null), null),
                problems.get(() -> a.string("mail_user", null), null),
                problems.get(() -> {
                    String home = a.string("java_home", null); // ~/jdk: the script quotes it, so no shell expands it
                    return home == null ? null : StepArgs.expandHome(home);
                }, null),
                java.util.Collections.unmodifiableMap(sbatchArgs));
        problems.check(a::requireAllUsed);
        return o;
    }

    /**
     * {@code time}, given to {@code sbatch --time} as it is ({@link SbatchOptions} checks its form). An unquoted
     * number is refused: sbatch reads a bare number as minutes, so {@code time: 3600}, meant as seconds, asked for
     * 60 hours.
     */
    private static String time(StepArgs a) {
        Object raw = a.raw().get("time");
        String time = a.string("time", null);
        if (!(raw instanceof Number) && a.raw().get("sbatch_args") instanceof Map<?, ?> args) {
            // the same limit given in sbatch_args (taken as the block's)
            Object given = args.containsKey("time") ? args.get("time") : args.get("--time");
            if (given instanceof Number) {
                raw = given;
            }
        }
        if (raw instanceof Number n) {
            boolean minutes = n.doubleValue() >= 0 && n.doubleValue() == Math.rint(n.doubleValue()) && !(raw instanceof Double);
            throw a.error(a.raw().get("time") == raw ? "time" : "sbatch_args.time", "is a number (" + raw + "), " + (minutes
                    && n.doubleValue() == 0 ? "which sbatch reads as no time limit; write it quoted, \"0\", if that is meant" : minutes
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
        List<String> memoryArgs = sbatchArgs.keySet().stream().filter(SlurmOptions::isMemoryArg).toList();
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
            return slurm.containsKey("mem_per_cpu") || !memoryArgs.isEmpty() ? null : "2G";
        }
        requireTaskMemory(a.where() + ": 'mem_per_cpu'", given, MemorySize.megabytes(given, a.where() + ".mem_per_cpu"), true);
        return given;
    }

    private static void requireTaskMemory(String where, String given, long megabytes, boolean perCpu) {
        if (megabytes < MIN_TASK_MEGABYTES) {
            // per CPU: whatever cpus_per_task gives an array element, a stage's stats merge job has one CPU
            throw new JobException(where + " is '" + given + "', which sbatch reads as " + megabytes + "M "
                    + (perCpu ? "per CPU (a stage's stats merge job has one)" : "for each array task")
                    + "; a worker needs at least " + MIN_TASK_MEGABYTES + "M"
                    // a bare number is megabytes to sbatch, so "2" meant as gigabytes is the likely mistake
                    + (given.strip().matches("[0-9.]+") ? ". Give the unit: 2G is two gigabytes" : ""));
        }
    }

    private static int inRange(StepArgs a, String key, long value, int min, int max) {
        if (value < min || value > max) {
            throw a.error(key, "must be from " + min + " to " + max + ", got " + value);
        }
        return (int) value;
    }
}
