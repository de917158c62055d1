package io.sluice.launcher.slurm;

import io.sluice.job.Job;
import io.sluice.job.Problems;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code sbatch} options of one stage, in the order they are written. Each goes into the script
 * as an {@code #SBATCH} line when sbatch can read it back unchanged there; a value that could not
 * survive a directive line (a double quote, a backslash, a line break) is given on the sbatch
 * command line instead, where it is one argument and nothing parses it.
 */
public final class SbatchOptions {

    /** One option; {@code value == null} for a flag such as {@code --requeue}. */
    public record Option(String name, String value) {
        String asArgument() {
            return value == null ? "--" + name : "--" + name + "=" + value;
        }
    }

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.,:/@%+=-]*");
    private static final Pattern JOB_NAME_JUNK = Pattern.compile("[^A-Za-z0-9_.-]+");

    private final List<Option> options = new ArrayList<>();

    /** sbatch's --time formats (see sbatch(1)); sbatch itself refuses anything else, after validate said OK. */
    private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile(
            "\\d+|\\d+:\\d+|\\d+:\\d+:\\d+|\\d+-\\d+|\\d+-\\d+:\\d+|\\d+-\\d+:\\d+:\\d+|(?i:unlimited|infinite)");

    /**
     * Builds the options of a slurm: block as submit will, so that what sbatch would refuse (a time it cannot
     * read, options submit sets itself) is a job-file error; {@code where} prefixes its keys ("job.yaml: slurm.").
     */
    static void check(SlurmOptions s, String where, Problems problems) {
        build(s, where, "check", s.cpusPerTask(), "check", s.requeue(), problems);
    }

    /** The options every array element of {@code stage} is submitted with (the array range comes per submission). */
    public static SbatchOptions forStage(Job job, Job.Stage stage, Path slurmDir) {
        SlurmOptions s = SlurmOptions.of(job, stage);
        return built(s, where(job, stage), jobName(job, stage), s.cpusPerTask(), outputPattern(slurmDir, "%A_%a.out"),
                s.requeue());
    }

    /** How messages name the stage's options: the job's slurm: block, or the stage's own over it. */
    private static String where(Job job, Job.Stage stage) {
        return SlurmOptions.ownTo(job, stage) ? "stage '" + stage.name() + "': slurm." : "slurm.";
    }

    /**
     * The options of the stage's stats merge: one CPU, same partition, account and limits, no requeue;
     * its output goes to {@code slurm_logs/stats_<job id>.out}.
     */
    public static SbatchOptions forStatsMerge(Job job, Job.Stage stage, Path slurmDir) {
        return built(SlurmOptions.of(job, stage), where(job, stage), jobName(job, stage) + ".stats", 1,
                outputPattern(slurmDir, "stats_%A.out"), false);
    }

    /** {@link #build}, its problems thrown together. */
    private static SbatchOptions built(SlurmOptions s, String where, String jobName, int cpus, String output, boolean requeue) {
        Problems problems = new Problems();
        SbatchOptions o = build(s, where, jobName, cpus, output, requeue, problems);
        problems.throwIfAny();
        return o;
    }

    /** The options, every problem with them noted in {@code problems} (validate tells them in one round). */
    private static SbatchOptions build(SlurmOptions s, String where, String jobName, int cpus, String output,
                                       boolean requeue, Problems problems) {
        SbatchOptions o = new SbatchOptions();
        o.add("job-name", jobName);
        o.add("cpus-per-task", Integer.toString(cpus));
        o.addIfSet("mem-per-cpu", s.memPerCpu());
        o.addIfSet("partition", blockValue(s, where, "partition", s.partition(), problems));
        String time = blockValue(s, where, "time", s.time(), problems);
        if (time != null && !time.isBlank() && !TIME.matcher(time).matches()) {
            problems.add(where + "time: '" + time + "' is not a Slurm time limit (minutes, MM:SS, HH:MM:SS,"
                    + " D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED)");
        }
        o.addIfSet("time", time);
        o.addIfSet("qos", blockValue(s, where, "qos", s.qos(), problems));
        o.addIfSet("account", blockValue(s, where, "account", s.account(), problems));
        o.addIfSet("mail-type", blockValue(s, where, "mail-type", s.mailType(), problems));
        o.addIfSet("mail-user", blockValue(s, where, "mail-user", s.mailUser(), problems));
        o.add("output", output);
        // the job file's relative paths are the submitting directory's: so also for a script resubmitted by hand
        o.add("chdir", Path.of("").toAbsolutePath().toString());
        if (requeue) {
            long limit = seconds(time);
            if (limit >= 0 && limit <= s.requeueGraceSeconds()) {
                // Slurm would signal each element as it starts, and the element requeue itself again and again
                problems.add(where + "requeue_grace_seconds: " + s.requeueGraceSeconds() + " s is not shorter than"
                        + " its time '" + time + "' (" + limit + " s): each element would be told to requeue itself"
                        + " as soon as it starts, again and again; lower requeue_grace_seconds, or set requeue: false");
            }
            o.options.add(new Option("requeue", null));
            // a requeued element appends to its log instead of overwriting the first attempt's
            o.add("open-mode", "append");
            o.add("signal", "B:USR1@" + s.requeueGraceSeconds());
        }
        if (s.sbatchArgs() != null) {
            for (Map.Entry<String, String> e : s.sbatchArgs().entrySet()) {
                String name = e.getKey().startsWith("--") ? e.getKey().substring(2) : e.getKey();
                if (!NAME.matcher(name).matches()) {
                    problems.add(where + "sbatch_args: '" + e.getKey() + "' is not an sbatch option name");
                    continue;
                }
                if (SET_BY_SUBMIT.contains(name) || (requeue && SET_FOR_REQUEUE.contains(name))) {
                    // a second line of the same option wins silently: --cpus-per-task=2 gave 2 CPUs to a worker
                    // sized for 1, --output hid the element's exit status from launcher status
                    problems.add(where + "sbatch_args: --" + name + " is set by `launcher submit` itself"
                            + (SET_FOR_REQUEUE.contains(name) ? " (with requeue: true; set requeue: false to give your own)" : ""));
                    continue;
                }
                if (BLOCK_KEYS.contains(name)) {
                    continue; // taken as the block's key (blockValue)
                }
                String value = e.getValue();
                o.options.add(new Option(name, value == null || value.isEmpty() ? null : value));
            }
        }
        return o;
    }

    /**
     * The value of the slurm: block's key {@code name}, or of the same option in its sbatch_args (datatrove's
     * users give {@code sbatch_args: {account: ...}}, as SlurmPipelineExecutor takes it), which then counts as the
     * block's: a time given there is the limit requeue_grace_seconds is checked against. Both, with different
     * values, is an error: one #SBATCH line would silently win.
     */
    private static String blockValue(SlurmOptions s, String where, String name, String blockValue, Problems problems) {
        if (s.sbatchArgs() == null) {
            return blockValue;
        }
        String given = null;
        boolean found = false;
        for (Map.Entry<String, String> e : s.sbatchArgs().entrySet()) {
            if (e.getKey().equals(name) || e.getKey().equals("--" + name)) {
                given = e.getValue();
                found = true;
            }
        }
        if (!found) {
            return blockValue;
        }
        if (blockValue != null && !blockValue.equals(given)) {
            problems.add(where + "sbatch_args: --" + name + "=" + given + " and " + name.replace('-', '_')
                    + ": " + blockValue + " are both given; keep one");
            return blockValue;
        }
        return given;
    }

    private static final java.util.Set<String> SET_BY_SUBMIT = java.util.Set.of("array", "dependency", "job-name",
            "output", "cpus-per-task", "kill-on-invalid-dep", "chdir");
    private static final java.util.Set<String> SET_FOR_REQUEUE = java.util.Set.of("requeue", "no-requeue", "open-mode", "signal");
    private static final java.util.Set<String> BLOCK_KEYS = java.util.Set.copyOf(SlurmOptions.SBATCH_OPTIONS);

    /** A Slurm time limit in seconds ("minutes", "MM:SS", "HH:MM:SS", "D-HH[:MM[:SS]]"); -1 for none or unlimited. */
    static long seconds(String time) {
        if (time == null || time.isBlank() || !TIME.matcher(time).matches() || !Character.isDigit(time.charAt(0))) {
            return -1;
        }
        long days = 0;
        String rest = time;
        int dash = time.indexOf('-');
        if (dash >= 0) {
            days = Long.parseLong(time.substring(0, dash));
            rest = time.substring(dash + 1);
        }
        String[] f = rest.split(":");
        long[] v = new long[f.length];
        for (int i = 0; i < f.length; i++) {
            v[i] = Long.parseLong(f[i]);
        }
        long s;
        if (dash >= 0) { // D-HH, D-HH:MM, D-HH:MM:SS
            s = v[0] * 3600 + (f.length > 1 ? v[1] * 60 : 0) + (f.length > 2 ? v[2] : 0);
        } else { // MM, MM:SS, HH:MM:SS
            s = f.length == 1 ? v[0] * 60 : f.length == 2 ? v[0] * 60 + v[1] : v[0] * 3600 + v[1] * 60 + v[2];
        }
        long total = days * 86400 + s;
        return total == 0 ? -1 : total; // sbatch takes a limit of 0 as none
    }

    private void add(String name, String value) {
        options.add(new Option(name, value));
    }

    private void addIfSet(String name, String value) {
        if (value != null && !value.isBlank()) {
            add(name, value);
        }
    }

    public List<Option> options() {
        return List.copyOf(options);
    }

    /** The {@code #SBATCH} lines of the options a directive can carry. */
    public List<String> directives() {
        List<String> lines = new ArrayList<>();
        for (Option o : options) {
            if (o.value() == null || PLAIN.matcher(o.value()).matches()) {
                lines.add("#SBATCH " + o.asArgument());
            } else if (fitsQuotedDirective(o.value())) {
                lines.add("#SBATCH --" + o.name() + "=\"" + o.value() + "\"");
            } else {
                lines.add("# --" + o.name() + " is given on the sbatch command line (its value cannot be written here)");
            }
        }
        return lines;
    }

    /** The options a directive cannot carry, as sbatch arguments. */
    public List<String> commandLineArguments() {
        List<String> args = new ArrayList<>();
        for (Option o : options) {
            if (o.value() != null && !PLAIN.matcher(o.value()).matches() && !fitsQuotedDirective(o.value())) {
                args.add(o.asArgument());
            }
        }
        return args;
    }

    /** sbatch strips one pair of double quotes around a directive's value; it has no escapes inside them. */
    private static boolean fitsQuotedDirective(String value) {
        return value.chars().noneMatch(c -> c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\0');
    }

    /** {@code <job>.<stage>} with anything but letters, digits, {@code . _ -} replaced: Slurm tools split on spaces. */
    static String jobName(Job job, Job.Stage stage) {
        return JOB_NAME_JUNK.matcher(job.name() + "." + stage.name()).replaceAll("_");
    }

    /**
     * {@code <slurm dir>/slurm_logs/<pattern>}; a {@code %} of the directory itself is doubled, since
     * sbatch reads {@code %} in a file name as a pattern.
     */
    static String outputPattern(Path slurmDir, String pattern) {
        return slurmDir.resolve("slurm_logs").toAbsolutePath().toString().replace("%", "%%") + "/" + pattern;
    }
}
