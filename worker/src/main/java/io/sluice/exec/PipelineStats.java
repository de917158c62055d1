package io.sluice.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.sluice.io.AtomicFile;
import io.sluice.pipeline.MetricStats;
import io.sluice.pipeline.StepStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stats of a rank ({@code stats/NNNNN.json}) or of a whole stage ({@code stats.json}): one entry
 * per step, in datatrove's shape {@code [{"name", "time_stats": {"total": seconds}, "stats": {...}}]}: the
 * counters as numbers, {@code doc_len} and {@code doc_len_tokens} in datatrove's MetricStats form.
 */
public final class PipelineStats {
    /** Reads Python's NaN and Infinity, which doc_len_tokens holds once token counts pass about 1e154 (as datatrove's files). */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS);
    private final List<StepStats> steps;

    public PipelineStats(List<StepStats> steps) {
        this.steps = steps;
    }

    public List<StepStats> steps() {
        return steps;
    }

    public StepStats step(String name) {
        for (StepStats s : steps) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** @param shared whether other processes may write the same file at once (a stage's stats.json) */
    public void write(Path file, boolean shared) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (StepStats s : steps) {
            ObjectNode o = arr.addObject();
            o.put("name", s.name());
            // Python's form, as datatrove's: Jackson wrote a step's 0.0008 s as 8.0E-4
            o.putObject("time_stats").putRawValue("total", new RawValue(io.sluice.io.PyJson.floatRepr(s.nanos() / 1e9)));
            ObjectNode stats = o.putObject("stats");
            Map<String, MetricStats> lengths = s.lengths();
            Set<String> keys = new TreeSet<>(s.counters().keySet());
            keys.addAll(lengths.keySet());
            for (String key : keys) {
                MetricStats length = lengths.get(key);
                if (length == null) {
                    stats.put(key, s.counters().get(key));
                } else {
                    StringBuilder dict = new StringBuilder();
                    length.appendJson(dict, true); // with its count, so that the ranks' files merge exactly
                    stats.putRawValue(key, new RawValue(dict.toString())); // Python's number forms, as written
                }
            }
        }
        byte[] bytes = JSON.writeValueAsBytes(arr);
        if (shared) {
            AtomicFile.writeShared(file, bytes);
        } else {
            AtomicFile.write(file, bytes);
        }
    }

    /**
     * What {@code launcher run} says as a stage ends and {@code launcher status} from the stage's stats.json (on
     * Slurm no console says it): {@link #counterNotes}, then {@link #skippedInputNotes}.
     */
    public List<String> notes() {
        List<String> notes = counterNotes();
        notes.addAll(skippedInputNotes());
        return notes;
    }

    /**
     * A filter that dropped every document for one reason, most often set up wrong (url_filter's url_key pointing
     * where the corpus has no URL, a language list without the corpus's language), and the documents without a URL:
     * said by {@code launcher run} as a stage ends and by {@code launcher status}, where before only the task logs had
     * a hint and the job ended "done" with nothing kept (on Slurm, nothing said it at all).
     */
    private List<String> counterNotes() {
        List<String> notes = new ArrayList<>();
        // datatrove stops at the first document without a URL; Sluice goes on, and says so: one line for the steps
        // that found the same documents without one (the stats blocks of a stage, each two groups), naming the
        // counters of each step, which a block's groups decide
        Map<String, Map<String, Set<String>>> noUrl = new java.util.LinkedHashMap<>(); // count -> step -> counters
        for (StepStats step : steps()) {
            long total = step.get("total");
            for (Map.Entry<String, Long> c : step.counters().entrySet()) {
                String key = c.getKey();
                if (total > 0 && key.startsWith("dropped_") && c.getValue() == total) {
                    notes.add(String.format("%s dropped all %d documents it saw as '%s'; its task logs say more", step.name(),
                            total, key.substring("dropped_".length())));
                } else if (c.getValue() > 0 && (key.equals("dropped_missing_url") || key.startsWith("no_url_"))) {
                    noUrl.computeIfAbsent(String.format("%,d of %,d documents", c.getValue(), total),
                                    k -> new java.util.LinkedHashMap<>())
                            .computeIfAbsent(step.name(), k -> new java.util.LinkedHashSet<>()).add(key);
                }
            }
        }
        noUrl.forEach((count, byStep) -> notes.add("no URL in " + count + ", counted by " + stepsAndCounters(byStep)
                + "; url_key says where it is looked for (the task logs name the key a document holds one under, if any)"));
        return notes;
    }

    /** "doc_stats and line_stats (no_url_fqdn), word_stats (no_url_fqdn, no_url_suffix)": steps alike together. */
    private static String stepsAndCounters(Map<String, Set<String>> byStep) {
        Map<Set<String>, List<String>> stepsByCounters = new java.util.LinkedHashMap<>();
        byStep.forEach((step, counters) -> stepsByCounters.computeIfAbsent(counters, k -> new ArrayList<>()).add(step));
        List<String> parts = new ArrayList<>();
        stepsByCounters.forEach((counters, steps) -> parts.add(inWords(steps) + " (" + String.join(", ", counters) + ")"));
        return String.join(", ", parts);
    }

    /** "a", "a and b", "a, b and c". */
    private static String inWords(List<String> names) {
        int n = names.size();
        return n == 1 ? names.getFirst() : String.join(", ", names.subList(0, n - 1)) + " and " + names.get(n - 1);
    }

    /**
     * Per step that skipped input (the reader's {@code skipped_<reason>} counters), what it skipped, as a sentence:
     * "read_jsonl skipped 3 malformed line(s), 2 line(s) with empty text (as datatrove skips them); its task logs
     * name them". Said by {@code launcher run} as a stage ends and by {@code launcher status}.
     */
    private List<String> skippedInputNotes() {
        List<String> notes = new java.util.ArrayList<>();
        for (StepStats step : steps()) {
            List<String> parts = new java.util.ArrayList<>();
            String datatroveSkipsToo = null; // said last, after what may be a mistake in the job or the data
            for (Map.Entry<String, Long> c : step.counters().entrySet()) {
                if (!c.getKey().startsWith("skipped_") || c.getValue() == 0) {
                    continue;
                }
                String reason = c.getKey().substring("skipped_".length());
                String what = String.format("%,d ", c.getValue()) + switch (reason) {
                    case "missing_text" -> "line(s) without the text key (text_key names it)";
                    case "malformed" -> "malformed line(s)";
                    case "invalid_utf8" -> "line(s) of invalid UTF-8";
                    case "empty_text" -> "line(s) with empty text (as datatrove skips them)";
                    case "corrupt_files" -> "damaged file(s) from the damage on";
                    default -> "(" + reason + ")";
                };
                if (reason.equals("empty_text")) {
                    datatroveSkipsToo = what;
                } else {
                    parts.add(what);
                }
            }
            if (datatroveSkipsToo != null) {
                parts.add(datatroveSkipsToo);
            }
            if (!parts.isEmpty()) {
                notes.add(step.name() + " skipped " + String.join(", ", parts) + "; its task logs name them");
            }
        }
        return notes;
    }

    public static PipelineStats read(Path file) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + ": unreadable stats file: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
        if (root == null || !root.isArray()) {
            throw new IOException(file + ": not a stats file (expected a JSON list of steps)");
        }
        List<StepStats> steps = new ArrayList<>();
        for (JsonNode o : root) {
            StepStats s = new StepStats(o.path("name").asText());
            s.addNanos((long) (o.path("time_stats").path("total").asDouble() * 1e9));
            Iterator<Map.Entry<String, JsonNode>> it = o.path("stats").fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equals(StepStats.DOC_LEN) || e.getKey().equals(StepStats.DOC_LEN_TOKENS)) {
                    try {
                        s.mergeLength(e.getKey(), MetricStats.fromJson(e.getValue()));
                    } catch (IllegalArgumentException bad) {
                        throw new IOException(file + ": step '" + s.name() + "': '" + e.getKey() + "': " + bad.getMessage());
                    }
                } else if (e.getValue().isIntegralNumber()) {
                    s.add(e.getKey(), e.getValue().asLong());
                }
            }
            steps.add(s);
        }
        return new PipelineStats(steps);
    }

    /** Adds another rank's stats step by step (the pipelines of one stage have the same steps). */
    public void mergeFrom(PipelineStats other) {
        for (int i = 0; i < other.steps.size(); i++) {
            StepStats o = other.steps.get(i);
            if (i < steps.size() && steps.get(i).name().equals(o.name())) {
                steps.get(i).mergeFrom(o);
            } else {
                StepStats copy = new StepStats(o.name());
                copy.mergeFrom(o);
                steps.add(copy);
            }
        }
    }
}
