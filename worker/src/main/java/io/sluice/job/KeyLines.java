package io.sluice.job;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line of every key and list item of a job file, by its path ({@code stages[0].steps[1].length_filter.min_words}),
 * so that a problem found in the tree names the line to edit as well as the path: a job of many stages, or one
 * written with anchors, has several {@code steps[1]}, and editors jump to {@code job.yaml:14:}.
 */
final class KeyLines {
    /** A name in brackets, itself with brackets one deep at most ("clean (v2)"). */
    private static final String BRACKETED = "\\((?:[^()]|\\([^()]*\\))*\\)";
    /*
     * A problem's path as the job file's readers write it: dotted keys with list indexes, each maybe followed by
     * the stage's or step's name in brackets ("stages[0] (clean).steps[1] (length_filter)").
     */
    private static final String SEGMENT = "[A-Za-z_][A-Za-z0-9_]*(?:\\[\\d+\\])*(?: " + BRACKETED + ")?";
    private static final Pattern PROBLEM = Pattern.compile("(" + SEGMENT + "(?:\\." + SEGMENT + ")*): (.*)", Pattern.DOTALL);
    /** The key a problem is about: "'min_words' must be ..." or "unknown key 'min_wrds' ...". */
    private static final Pattern KEY = Pattern.compile("(?:unknown keys? )?'([^']+)'.*", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile(" " + BRACKETED);
    /**
     * A step a minhash: block makes, "minhash (minhash_cluster)": its further keys are under the block's key of that
     * name ({@code cluster: {threads: 8}}); the rest it is given, the block made from its own keys.
     */
    private static final Pattern BLOCK_STEP = Pattern.compile("\\.minhash \\(minhash_(signature|buckets|cluster|filter)\\)");
    /** A step in a list of steps, and its name: "steps[1] (length_filter)", "after_filter[0] (pii_formatter)". */
    private static final Pattern STEP = Pattern.compile("((?:^|\\.)(?:steps|after_filter)\\[\\d+\\]) \\(([^()]*)\\)");

    private final Map<String, Integer> lines = new HashMap<>();
    /** Per path that is an alias (*name), or a value a merge key brought in, the path of what it stands for. */
    private final Map<String, String> aliases = new HashMap<>();

    /** Notes where {@code path} is. */
    void put(String path, int line) {
        lines.putIfAbsent(path, line);
    }

    /** The line noted for {@code path}, or null. */
    Integer line(String path) {
        return lines.get(path);
    }

    /**
     * Notes that the value at {@code path} is the one written at {@code written} (an alias of an anchored value):
     * a key inside it is told at the line it is written on, where it is to be mended.
     */
    void alias(String path, String written) {
        if (written != null) {
            aliases.putIfAbsent(path, written);
        }
    }

    /** The line of {@code keyPath}, looked up also where an alias on its way stands for the value written elsewhere. */
    private Integer lineThroughAliases(String keyPath) {
        Integer line = lines.get(keyPath);
        for (int hops = 0; line == null && hops < 8; hops++) { // an alias inside an aliased value: a few hops at most
            String resolved = null;
            for (String p = parent(keyPath); !p.isEmpty() && resolved == null; p = parent(p)) {
                String written = aliases.get(p);
                if (written != null) {
                    resolved = written + keyPath.substring(p.length());
                }
            }
            if (resolved == null) {
                return null;
            }
            keyPath = resolved;
            line = lines.get(keyPath);
        }
        return line;
    }

    /**
     * {@code problem}, told of the file {@code fileName} ("job.yaml: stages[0] (a).steps[1] (length_filter): 'min_words'
     * ..."), with the line of the key or item it names after the file name ("job.yaml:14: stages[0] ..."). A key that
     * an alias or a merge key {@code <<} brings in gets the line it is written on, in the anchored mapping, where it
     * is mended; one not written anywhere (a required key missing), the line of the nearest thing written. A problem
     * naming no path, or another file, is returned as it is.
     */
    String locate(String fileName, String problem) {
        String prefix = fileName + ": ";
        if (!problem.startsWith(prefix)) {
            return problem;
        }
        String told = problem.substring(prefix.length());
        Matcher m = PROBLEM.matcher(told);
        boolean hasPath = m.matches();
        String written = hasPath ? m.group(1) : ""; // else a key of the job's own: "job.yaml: 'tasks' must be ..."
        // a step's keys are under its name (stages[0].steps[1] (length_filter) holds length_filter.min_words); a
        // stage's name in brackets is a value, not a key
        String path = NAME.matcher(BLOCK_STEP.matcher(STEP.matcher(written).replaceAll("$1.$2")).replaceAll(".minhash.$1"))
                .replaceAll("");
        Matcher key = KEY.matcher(hasPath ? m.group(2) : told);
        Integer line = key.matches() ? lineThroughAliases(join(path, key.group(1))) : null;
        for (String p = path; line == null && !p.isEmpty(); p = parent(p)) {
            line = lines.get(p);
        }
        return line == null ? problem : fileName + ":" + line + ": " + told;
    }

    /**
     * A step's place as the readers name it ({@code "job.yaml: stages[0] (a).steps[1] (length_filter)"}) with its
     * line: {@code "job.yaml:12: stages[0] ..."}, so that what is found later (inputs, outputs) names the line too.
     */
    String place(String fileName, String where) {
        String located = locate(fileName, where + ": ");
        return located.substring(0, located.length() - 2);
    }

    /** A key of the job's own as messages name it: "job.yaml:3: logging_dir", or "job.yaml: logging_dir" when not written. */
    String placeOfKey(String fileName, String key) {
        Integer line = lineThroughAliases(key);
        return fileName + (line == null ? "" : ":" + line) + ": " + key;
    }

    /** "job.yaml:12: stages[0] ...": the file, a line, and the place in the file ({@link #place}). */
    private static final Pattern PLACE = Pattern.compile("(.*?)(?::(\\d+))?: (stages\\[.*)", Pattern.DOTALL);

    /**
     * {@code other}, a step's {@link #place}, as named in a message about the step at {@code where}: without the
     * file's name when it is the same file, its line after it ("stages[0] (a).steps[0] (read_jsonl) at line 4").
     */
    static String crossReference(String other, String where) {
        Matcher o = PLACE.matcher(other);
        Matcher w = PLACE.matcher(where);
        if (!o.matches() || !w.matches() || !o.group(1).equals(w.group(1))) {
            return other;
        }
        return o.group(3) + (o.group(2) == null ? "" : " at line " + o.group(2));
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String parent(String path) {
        return path.substring(0, Math.max(0, Math.max(path.lastIndexOf('.'), path.lastIndexOf('['))));
    }
}
