package io.sluice.job;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one step in a job file, with typed getters that name the key in every error.
 * A step's factory reads what it knows; {@link #requireAllUsed()} then rejects any key it did not
 * read, listing the ones it accepts, so a typo never passes silently.
 */
public final class StepArgs {
    private final String where;
    private final Map<String, Object> values;
    private final Set<String> known = new LinkedHashSet<>();
    private final Set<String> missing = new LinkedHashSet<>();
    /** The keys whose values a getter could not take (it gave the default, so that the factory reads on), and their problems. */
    private final Set<String> badKeys = new LinkedHashSet<>();
    private final List<String> noted = new ArrayList<>();

    /** Whether a bad value is noted and told by {@link #requireAllUsed} (a step's) rather than thrown at once. */
    private final boolean noting;

    /**
     * Arguments whose getters throw on a bad value; the job's and a stage's keys are read so, each through
     * {@link Problems#get}, which goes on to the next.
     *
     * @param where how to name them in messages, e.g. {@code "job.yaml: stages[0].steps[1] (length_filter)"}
     */
    public StepArgs(String where, Map<String, Object> values) {
        this(where, values, false);
    }

    private StepArgs(String where, Map<String, Object> values, boolean noting) {
        this.where = where;
        this.values = values == null ? Map.of() : values;
        this.noting = noting;
    }

    /** A step's arguments: its factory reads them all, and their problems are told together ({@link #bad}). */
    public static StepArgs ofStep(String where, Map<String, Object> values) {
        return new StepArgs(where, values, true);
    }

    public static StepArgs of(Map<String, Object> values) {
        return new StepArgs("step", values);
    }

    public String where() {
        return where;
    }

    public boolean has(String key) {
        known.add(key);
        return values.containsKey(key) && values.get(key) != null;
    }

    public JobException error(String key, String problem) {
        return new JobException(where + ": '" + key + "' " + problem);
    }

    /**
     * For a step's arguments, notes that {@code key}'s value cannot be taken and gives {@code fallback} in its place,
     * so that the factory reads its other keys and the step's mistakes are told together ({@link #requireAllUsed}):
     * a datatrove step translated by hand often has several, and one round of validate per mistake was slow going.
     * Other arguments throw the problem.
     */
    private <T> T bad(String key, String problem, T fallback) {
        if (!noting) {
            throw error(key, problem);
        }
        if (badKeys.add(key)) {
            noted.add(error(key, problem).getMessage());
        }
        return fallback;
    }

    /**
     * What {@code read} gives; for a step's arguments, when it fails on a job-file mistake, {@code fallback} with
     * the problems noted, as a getter's ({@link #bad}): a part the factory checks itself (a filter's
     * {@code exclusion_output} mapping) then hides none of the step's other keys.
     */
    public <T> T readOn(java.util.function.Supplier<T> read, T fallback) {
        try {
            return read.get();
        } catch (JobException e) {
            if (!noting) {
                throw e;
            }
            noted.addAll(e.problems());
            return fallback;
        }
    }

    public String string(String key, String dflt) {
        known.add(key);
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Map || v instanceof List) {
            return bad(key, "must be a string, got " + describe(v), dflt);
        }
        if (v instanceof Boolean b) {
            return bad(key, "must be a string, got the boolean " + b + UNQUOTED_BOOLEANS, dflt);
        }
        return v.toString();
    }

    /**
     * Why a string key got a boolean: YAML 1.1, which the job file is read as, turns unquoted yes, no, on, off,
     * true and false into booleans, so a list of stop words lost "on" and "no", and {@code languages: [no]}
     * (Norwegian) became "false".
     */
    private static final String UNQUOTED_BOOLEANS = " (YAML reads unquoted yes, no, on, off, true and false as"
            + " booleans: quote the word, e.g. \"no\")";

    /** A folder or file that must be given: {@link #requireString}, with a leading {@code ~} expanded ({@link #expandHome}). */
    public java.nio.file.Path path(String key) {
        return pathOf(key, requireString(key));
    }

    /** A folder or file that may be left out: {@code dflt} then (null for none), a leading {@code ~} expanded. */
    public java.nio.file.Path optionalPath(String key, String dflt) {
        String s = string(key, dflt);
        return s == null ? null : pathOf(key, s);
    }

    private java.nio.file.Path pathOf(String key, String s) {
        try {
            return java.nio.file.Path.of(expandHome(s));
        } catch (java.nio.file.InvalidPathException e) { // a NUL: java.nio named the path, not the key
            throw error(key, "is no path ('" + s.replace('\0', '?') + "'): " + e.getReason());
        }
    }

    /**
     * {@code ~}, {@code ~/...} and {@code ~bob/...} as a home folder, as datatrove's paths (fsspec, by Python's
     * {@code expanduser}) and a shell read them: a job file is read by no shell, and an output {@code ~/out} made a
     * folder named "~" in the current one. A user the system does not know is left as written, as Python leaves it.
     */
    public static String expandHome(String path) {
        if (path.equals("~") || path.startsWith("~/")) {
            return System.getProperty("user.home") + path.substring(1);
        }
        int slash = path.indexOf('/');
        String user = path.startsWith("~") ? path.substring(1, slash < 0 ? path.length() : slash) : "";
        String home = user.matches("[A-Za-z0-9._][A-Za-z0-9._-]*") ? homeOf(user) : null;
        return home == null ? path : home + (slash < 0 ? "" : path.substring(slash));
    }

    /** A user's home folder by the system's user database (getent: LDAP users too, as on clusters), or null. */
    private static String homeOf(String user) {
        try {
            Process p = new ProcessBuilder("getent", "passwd", user).redirectErrorStream(true).start();
            String line = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            String[] fields = line.split(":", -1);
            return p.waitFor() == 0 && fields.length >= 7 && fields[0].equals(user) && !fields[5].isEmpty() ? fields[5] : null;
        } catch (java.io.IOException e) {
            return null; // no getent: the path as written
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * A string that must be given. A missing one is reported by {@link #requireAllUsed()}, after any unknown
     * key: that key (datatrove's {@code data_folder} for {@code path}, say) is the likely cause, and naming
     * it first says so. Until then the value is "", so the factory goes on reading its other keys.
     */
    public String requireString(String key) {
        String s = string(key, null);
        if (s == null || s.isEmpty()) {
            if (!badKeys.contains(key)) {
                missing.add(key);
            }
            return "";
        }
        return s;
    }

    /**
     * What to throw for a factory that failed with {@code e}: the values noted bad before it, then a required key's
     * absence when one was missing, since the "" read in its place may have caused the failure; else {@code e}.
     */
    public JobException missingOr(JobException e) {
        List<String> problems = new ArrayList<>(noted);
        problems.addAll(missing.isEmpty() ? e.problems() : List.of(missingError().getMessage()));
        return JobException.of(problems);
    }

    private JobException missingError() {
        String key = missing.iterator().next();
        return error(key, "is required" + Spelling.datatroveSpellingOf(key, values.keySet()));
    }

    public long integer(String key, long dflt) {
        known.add(key);
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            // a BigInteger's longValue() wraps and a double's saturates: 2^64 was read as 0, 1e30 as 2^63 - 1
            if (!fitsInLong(n)) {
                return bad(key, "must be an integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ", got " + describe(v), dflt);
            }
            return n.longValue();
        }
        if (v instanceof String s) {
            Long size = parseSize(s);
            if (size != null) {
                return size;
            }
        }
        return bad(key, "must be an integer, got " + describe(v), dflt);
    }

    /**
     * A size in bytes: an integer, or "512M", "1G" (powers of 1024). As {@link #integer}, with an error that
     * says so: split_size: 1.5M was answered "must be an integer", though 1M is taken.
     */
    public long size(String key, long dflt) {
        Object v = values.get(key);
        if (v instanceof String s && parseSize(s) == null) {
            known.add(key);
            return bad(key, "must be a size such as 512M or 1G (a whole number, with K, M, G or T), got " + describe(v), dflt);
        }
        return integer(key, dflt);
    }

    /** An integer that may be absent (null). */
    public Long optionalInteger(String key) {
        return has(key) ? integer(key, 0) : null;
    }

    public double number(String key, double dflt) {
        known.add(key);
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        // a quoted number, as integer() takes "50" (and "1G"): the same for max_symbol_word_ratio: "0.1"
        if (v instanceof String s && DECIMAL.matcher(s.strip()).matches()) {
            return Double.parseDouble(s.strip());
        }
        return bad(key, "must be a number, got " + describe(v), dflt);
    }

    /** {@link #refuseNull(String, String...)}'s advice for a number datatrove compares, and so fails on as None. */
    public static final String NUMBER_NOT_NULL = ", which datatrove fails on here (it compares it with a number); give a"
            + " number, or leave the key out for the default";

    /**
     * Refuses these keys given as null, "is null" and {@code advice} said: where datatrove fails on None
     * (fineweb_quality's thresholds, c4_quality's counts, {@link #NUMBER_NOT_NULL}), read as the default the check
     * ran that a user who wrote null likely meant off; and where null, read as false, would do harm.
     */
    public void refuseNull(String advice, String... keys) {
        for (String key : keys) {
            known.add(key);
            if (values.containsKey(key) && values.get(key) == null) {
                bad(key, "is null" + advice, null);
            }
        }
    }

    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    /**
     * A flag: left out, {@code dflt}; given as null, false, as Python's {@code if self.flag:} reads None (c4_quality's
     * {@code filter_curly_bracket: null} turns the check off in datatrove, and took the default, true, here).
     */
    public boolean bool(String key, boolean dflt) {
        known.add(key);
        if (!values.containsKey(key)) {
            return dflt;
        }
        Object v = values.get(key);
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return bad(key, "must be true or false, got " + describe(v), dflt);
    }

    /**
     * A list of words, as {@link #strings}, but a single string is refused: where datatrove tests {@code word in
     * stop_words}, a string is not one word but {@code pythonReads} (its substrings, or its letters once made a set).
     */
    public List<String> words(String key, List<String> dflt, String pythonReads) {
        Object v = values.get(key);
        if (v instanceof String s) {
            known.add(key);
            return bad(key, "must be a list of words, such as [" + s + "]: datatrove would read the string '" + s + "' as "
                    + pythonReads, dflt);
        }
        if (v != null && !(v instanceof List<?>)) {
            known.add(key);
            return bad(key, "must be a list of words, got " + describe(v), dflt); // not "a string or a list", as strings() says
        }
        // "" is never a word, so datatrove's `word in stop_words` never matches it: it is dropped (the word tables
        // failed on it, "error: Index 0 out of bounds for length 0")
        return strings(key, dflt).stream().filter(w -> !w.isEmpty()).toList();
    }

    /** A string, or a list of strings (a single string becomes a one-element list). */
    public List<String> strings(String key, List<String> dflt) {
        known.add(key);
        Object v = values.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof String s) {
            return List.of(s);
        }
        if (v instanceof List<?> l) {
            List<String> out = new ArrayList<>();
            for (Object o : l) {
                if (o instanceof Map || o instanceof List || o == null) {
                    return bad(key, "must be a list of strings, got an element " + describe(o), dflt);
                }
                if (o instanceof Boolean b) {
                    return bad(key, "must be a list of strings, got the boolean " + b + " as element "
                            + (out.size() + 1) + UNQUOTED_BOOLEANS, dflt);
                }
                out.add(o.toString());
            }
            return out;
        }
        return bad(key, "must be a string or a list of strings, got " + describe(v), dflt);
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> map(String key) {
        known.add(key);
        Object v = values.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> m) {
            return new LinkedHashMap<>((Map<String, Object>) m);
        }
        return bad(key, "must be a mapping, got " + describe(v), null);
    }

    /** One of a fixed set of words; the message lists them. */
    public String choice(String key, String dflt, String... allowed) {
        String s = string(key, dflt);
        if (s == null) {
            return null;
        }
        for (String a : allowed) {
            if (a.equals(s)) {
                return s;
            }
        }
        return bad(key, "must be one of " + String.join(", ", allowed) + ", got '" + s + "'", dflt);
    }

    /** Counts {@code key} as one of these arguments, read elsewhere (a stage's slurm block), for the list of allowed keys. */
    public void readElsewhere(String key) {
        known.add(key);
    }

    /** Fails on the values noted bad, then on keys no getter read (all of them named, each with a hint), then on a missing required key. */
    public void requireAllUsed() {
        List<String> problems = new ArrayList<>(noted);
        List<String> unknown = new ArrayList<>();
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                unknown.add("'" + k + "'" + Spelling.didYouMean(k, known));
            }
        }
        if (!unknown.isEmpty()) {
            problems.add(where + ": unknown key" + (unknown.size() == 1 ? " " : "s ") + String.join(", ", unknown)
                    + "; allowed: " + String.join(", ", known)
                    + (missing.isEmpty() ? "" : "; and '" + missing.iterator().next() + "' is required"));
        } else if (!missing.isEmpty()) {
            problems.add(missingError().getMessage());
        }
        if (!problems.isEmpty()) {
            throw JobException.of(problems);
        }
    }

    public Map<String, Object> raw() {
        return values;
    }

    /** The value of {@code key} as the job file gave it (null when absent), for a caller that checks it itself; counts the key as read. */
    public Object rawValue(String key) {
        known.add(key);
        return values.get(key);
    }

    private static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof List) {
            return "a list";
        }
        return "'" + v + "'";
    }

    /** "64M", "1G", "500k" (powers of 1024) or a plain integer; null when not a size. */
    static Long parseSize(String s) {
        String t = s.trim().toUpperCase();
        long mult = 1;
        if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'K' -> mult = 1L << 10;
                case 'M' -> mult = 1L << 20;
                case 'G' -> mult = 1L << 30;
                case 'T' -> mult = 1L << 40;
                default -> mult = 1;
            }
            if (mult != 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        try {
            return Math.multiplyExact(Long.parseLong(t.trim()), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    private static boolean fitsInLong(Number n) {
        if (n instanceof BigInteger b) {
            return b.bitLength() < 64;
        }
        if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
            double d = n.doubleValue();
            return d >= -0x1p63 && d < 0x1p63;
        }
        return true;
    }
}
