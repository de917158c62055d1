package io.sluice.stats;

import io.sluice.doc.Document;
import io.sluice.doc.MetadataKey;
import io.sluice.io.AtomicFile;
import io.sluice.io.PyJson;
import io.sluice.io.RankName;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.MetricStats;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import io.sluice.text.PackedChars;
import io.sluice.text.PyText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Base of the statistics steps (datatrove's {@code BaseStats}): a block computes named per-document
 * values ({@link #extract}); this class adds them to the requested groups and, at the end of the rank,
 * writes one {@link MetricStatsDict} per group and stat to {@code <output>/<group>/<stat>/<rank:05d>.json}.
 *
 * <p>Groups: {@code summary} (one key, "summary"), {@code histogram} (key {@code str(round(value, 3))},
 * with companion stats {@code <stat>__chars} summing the document lengths and, when documents carry
 * {@code token_count} metadata, {@code <stat>__tokens}), {@code fqdn} and {@code suffix} (key from the
 * document's URL; only the {@code top_k} most frequent keys are written, for the groups of {@code top_k_groups}). With the summary group each
 * stat also gets a {@link QuantileSketch} in {@code <rank:05d>.quantiles.json} beside its summary file.
 *
 * <p>Each document's values are also put into its metadata under the stat names, as datatrove does,
 * and the document is forwarded.
 *
 * <p>Job keys shared by all blocks: {@code output} (required), {@code groups} (default all four),
 * {@code histogram_round_digits} (3), {@code top_k} (100000), {@code top_k_groups} (fqdn and suffix), {@code url_key} ({@code metadata.url};
 * see {@link MetadataKey}).
 */
public abstract class StatsStep implements Step {
    public static final List<String> ALL_GROUPS = List.of("summary", "histogram", "fqdn", "suffix");
    static final String SKETCH_SUFFIX = ".quantiles.json";
    /** A per-rank stats file and a per-rank sketch ({@link RankName}); group 1 is the rank, past an int for {@link #rankOf}. */
    static final Pattern RANK_FILE = Pattern.compile(RankName.DIGITS + "\\.json");
    static final Pattern RANK_SKETCH = Pattern.compile(RankName.DIGITS + Pattern.quote(SKETCH_SUFFIX));

    private final Path output;
    private final List<String> groups;
    private final int roundDigits;
    private final int topK;
    private final Set<String> topKGroups;
    private final MetadataKey urlKey;
    private StepContext ctx;

    private String[] names;
    private boolean[] integral;
    private double[] values;
    /** Documents left out of the fqdn and suffix groups for want of a URL (counted here: a map update per document showed in profiles). */
    private long noUrlFqdn;
    private long noUrlSuffix;
    private MetricStats[] summary;
    private QuantileSketch[] sketches;
    private HistogramBins[] histograms;
    /** Per domain, one MetricStats per stat: one map lookup per document and group, not one per stat. */
    private Map<String, MetricStats[]> fqdn;
    private Map<String, MetricStats[]> suffix;
    private int rank;
    private long documents;
    /** Documents whose token_count metadata is there but not a number. */
    private long tokenCountNotANumber;

    protected StatsStep(StepArgs args) {
        output = args.path("output");
        // a group named twice counts once; before, the step was refused as writing the same files as itself
        groups = StatArgs.subset(args, "groups", ALL_GROUPS);
        if (groups.isEmpty()) {
            throw args.error("groups", "must name at least one group");
        }
        // Python's round(x, n) returns x itself past n = 323 and a zero below n = -308 (for an int, below the 19 digits of
        // a long): any integer is a good n, and one past those bounds rounds as they do (the BigDecimal of n = 10^8 hung)
        args.refuseNull(", which datatrove passes to round() as None, so its histogram keys are whole numbers (\"0\","
                + " \"1\"), a form Sluice does not write; give a number of digits (0 rounds to whole numbers), or leave"
                + " the key out for 3", "histogram_round_digits");
        roundDigits = Math.clamp(args.integer("histogram_round_digits", 3), -400, 400);
        topK = StatArgs.topK(args);
        topKGroups = StatArgs.topKGroups(args);
        urlKey = MetadataKey.urlKey(args);
    }

    /**
     * Declares the block's stats, in output order; called once from the subclass constructor.
     *
     * @param integralFlags whether each stat is an integer (Python int): its histogram keys then look like "12"
     */
    protected final void declare(List<String> statNames, List<Boolean> integralFlags) {
        names = statNames.toArray(String[]::new);
        integral = new boolean[names.length];
        for (int i = 0; i < names.length; i++) {
            integral[i] = integralFlags.get(i);
        }
        values = new double[names.length];
    }

    /** The folder the per-rank files go to. */
    public Path output() {
        return output;
    }

    /** The block's stat names, in order. */
    public List<String> statNames() {
        return List.of(names);
    }

    /** Computes the stats of one document into {@code out}, in declaration order. */
    protected abstract void extract(String text, double[] out);

    /**
     * Writes, from {@code out[i]} on, the share of {@code lengths} at most each of {@code shortMax}, then
     * at least each of {@code longMin} (datatrove's short_/long_..._ratio stats); returns the next index.
     */
    protected static int shareByLength(int[] lengths, int[] shortMax, int[] longMin, double[] out, int i) {
        for (int k : shortMax) {
            long c = 0;
            for (int len : lengths) {
                c += len <= k ? 1 : 0;
            }
            out[i++] = ratio(c, lengths.length);
        }
        for (int k : longMin) {
            long c = 0;
            for (int len : lengths) {
                c += len >= k ? 1 : 0;
            }
            out[i++] = ratio(c, lengths.length);
        }
        return i;
    }

    /**
     * The characters of {@code text} in an array this step reuses (the hot loops read an array rather
     * than pay {@code String.charAt}'s checks per character); valid until the next call. Arrays of more
     * than a million characters are not kept, so one huge document does not pin its size. The array has
     * {@link PackedChars#MAX_CHARS} characters to spare after the text (of any value), for reading a
     * short word as {@link PackedChars}.
     */
    protected final char[] charsOf(String text) {
        int n = text.length();
        char[] c = chars;
        if (c.length < n + PackedChars.MAX_CHARS || c.length > MAX_KEPT_CHARS) {
            c = new char[Math.max(n + PackedChars.MAX_CHARS, 1 << 12)];
            if (c.length <= MAX_KEPT_CHARS) {
                chars = c;
            }
        }
        text.getChars(0, n, c, 0);
        return c;
    }

    private static final int MAX_KEPT_CHARS = 1 << 20;
    private char[] chars = new char[0];

    /** {@code a / b}, or 0 when b is 0 (datatrove would divide by zero on such documents). */
    protected static double ratio(double a, double b) {
        return b == 0 ? 0.0 : a / b;
    }

    @Override
    public void open(StepContext ctx) {
        this.ctx = ctx;
        rank = ctx.rank();
        int n = names.length;
        summary = new MetricStats[n];
        sketches = new QuantileSketch[n];
        histograms = new HistogramBins[n];
        fqdn = new LinkedHashMap<>();
        suffix = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            summary[i] = new MetricStats();
            sketches[i] = new QuantileSketch();
            histograms[i] = new HistogramBins(integral[i]);
        }
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        String text = doc.text();
        extract(text, values);
        documents++;
        for (String group : groups) {
            switch (group) {
                case "summary" -> {
                    for (int i = 0; i < names.length; i++) {
                        add(summary[i], i);
                        sketches[i].add(values[i]);
                    }
                }
                case "histogram" -> {
                    long chars = PyText.len(text);
                    Number tokens = tokenCount(doc);
                    for (int i = 0; i < names.length; i++) {
                        histograms[i].add(histogramKeyBits(i), chars, tokens);
                    }
                }
                case "fqdn", "suffix" -> {
                    String key = domainKey(doc, group);
                    if (key == null) {
                        continue;
                    }
                    Map<String, MetricStats[]> rows = group.equals("fqdn") ? fqdn : suffix;
                    MetricStats[] row = rows.get(key);
                    if (row == null) {
                        row = newRow();
                        rows.put(key, row);
                    }
                    for (int i = 0; i < names.length; i++) {
                        add(row[i], i);
                    }
                }
                default -> throw new IllegalStateException(group);
            }
        }
        for (int i = 0; i < names.length; i++) {
            doc.putMetadata(names[i], integral[i] ? (Object) (long) values[i] : (Object) values[i]);
        }
        next.accept(doc);
    }

    private void add(MetricStats s, int i) {
        if (integral[i]) {
            s.add((long) values[i]);
        } else {
            s.add(values[i]);
        }
    }

    private MetricStats[] newRow() {
        MetricStats[] row = new MetricStats[names.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = new MetricStats();
        }
        return row;
    }

    /** Python's {@code round(value, digits)} as {@link HistogramBins} keys it: a long, or a double's bits. */
    private long histogramKeyBits(int i) {
        double v = values[i];
        if (integral[i]) {
            if (roundDigits >= 0) {
                return (long) v;
            }
            return (long) new java.math.BigDecimal((long) v)
                    .setScale(Math.max(roundDigits, -20), java.math.RoundingMode.HALF_EVEN).doubleValue();
        }
        return Double.doubleToLongBits(PyJson.round(v, roundDigits));
    }

    /**
     * The document's {@code token_count} metadata, for the {@code __tokens} histograms, as datatrove adds it: a
     * float as a float (12.7 was cut to 12), an integer past a long's range as its double (it wrapped), true and
     * false as 1 and 0 (Python's bools are ints); null when it has none. One that is not a finite number (datatrove
     * fails on it) is left out, counted as {@code token_count_not_a_number} and, the first time, logged.
     */
    private Number tokenCount(Document doc) {
        Object t = doc.metadataValue("token_count");
        // NaN and the infinities (Python's json reads and writes them) are no count: NaN gave 0, Infinity overflowed
        if (t == null) {
            return null;
        }
        if (t instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        if (t instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n;
        }
        if (tokenCountNotANumber++ == 0) {
            ctx.log().warn(ctx.stats().name() + ": " + doc.describe() + " has " + (t instanceof String str ? "the string '" + str + "'" : kindOf(t))
                    + " as metadata 'token_count', not a count; such documents are left out of the __tokens histograms"
                    + " and counted as token_count_not_a_number");
        }
        return null;
    }

    /**
     * The document's fqdn or suffix: from its metadata if present, else from its URL (then put there, as
     * datatrove does, under the group's name only). A document without a URL is left out of the domain groups,
     * counted ({@code no_url_<group>}) and, the first time, logged: corpora that mix web pages with other text
     * stay measurable. (datatrove stops there with a KeyError.) A URL with no registrable host, the empty string
     * included, has the key "", as in datatrove.
     *
     * <p>The metadata's value is used as given, as datatrove reads it (from the input, or from the stats steps of
     * an earlier job, which put it there), unless a stats step of this pipeline put it there from another
     * {@code url_key}: a later step with its own key counted 761 documents under suffixes when 61 had that key.
     * Who put what, and the URL splits made, are noted on the document.
     */
    private String domainKey(Document doc, String group) {
        DomainNote note = doc.note(DomainNote.class) instanceof DomainNote n ? n : null;
        String key = urlKey.toString();
        String putBy = note == null ? null : note.putBy().get(group);
        Object given = doc.metadataValue(group);
        if (given != null && (putBy == null || putBy.equals(key))) {
            // a number or a boolean is its key as Python's json writes it ({5: ...} as "5", True as "true"); a list or
            // an object, which datatrove cannot use as a key (TypeError), is set aside for the URL's split
            String asKey = given instanceof String str ? str
                    : given instanceof Boolean b ? b.toString()
                    : given instanceof Double d ? io.sluice.io.PyJson.floatRepr(d)
                    : given instanceof Number n ? n.toString() : null;
            if (asKey != null) {
                return asKey;
            }
        }
        DomainParts.Split split = note == null ? null : note.splits().get(key);
        if (split == null) {
            Object url = urlKey.valueIn(doc);
            if (!(url instanceof String u)) {
                if (noUrlFqdn + noUrlSuffix == 0) { // one line a step, not one a group
                    List<String> domainGroups = groups.stream().filter(g -> g.equals("fqdn") || g.equals("suffix")).toList();
                    String what = url == null ? " has no URL in metadata '" + urlKey + "'" + urlKey.hintWhereAbsent(doc)
                            : " has " + kindOf(url) + " in metadata '" + urlKey + "', not a text URL";
                    // named by step: the blocks of a stage log the same words, and a log tail showed three alike lines
                    ctx.log().warn(ctx.stats().name() + ": " + doc.describe() + what + "; documents without one are left out of the '"
                            + String.join("' and '", domainGroups) + "' group" + (domainGroups.size() > 1 ? "s" : "")
                            + " and counted as " + String.join(" and ", domainGroups.stream().map(g -> "no_url_" + g).toList()));
                }
                if (group.equals("fqdn")) {
                    noUrlFqdn++;
                } else {
                    noUrlSuffix++;
                }
                return null;
            }
            split = DomainParts.split(u);
        }
        if (note == null) {
            note = new DomainNote(new HashMap<>(2), new HashMap<>(2));
            doc.putNote(DomainNote.class, note);
        }
        note.splits().put(key, split);
        String value = group.equals("fqdn") ? split.fqdn() : split.suffix();
        doc.putMetadata(group, value);
        note.putBy().put(group, key);
        return value;
    }

    /** Per domain group, the url_key of the stats step that put it in the metadata; per url_key, its URL's split. */
    private record DomainNote(Map<String, String> putBy, Map<String, DomainParts.Split> splits) {
    }

    private static String kindOf(Object value) {
        return value instanceof Number n ? "the number " + n
                : value instanceof Boolean b ? "the boolean " + b
                : value instanceof java.util.List<?> ? "a list" : value instanceof Map<?, ?> ? "an object" : "not text";
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        if (tokenCountNotANumber > 0) {
            ctx.stats().add("token_count_not_a_number", tokenCountNotANumber);
        }
        if (noUrlFqdn > 0) {
            ctx.stats().add("no_url_fqdn", noUrlFqdn);
        }
        if (noUrlSuffix > 0) {
            ctx.stats().add("no_url_suffix", noUrlSuffix);
        }
        String rankName = String.format("%05d", rank);
        removeStaleFiles(rankName);
        if (documents == 0) {
            // like datatrove: a rank without documents writes no stats files; the folder tells merge_stats
            // that the step ran
            Files.createDirectories(output);
            return;
        }
        // each file's JSON is made as it is written (AtomicFile.writeAll): a domain group's can be hundreds of MB
        Map<Path, AtomicFile.Content> files = new LinkedHashMap<>();
        for (String group : groups) {
            // every stat of a domain group has the same keys and counts: ranked once, by the first file's maker
            var topKeys = new java.util.concurrent.atomic.AtomicReference<List<String>>();
            for (int i = 0; i < names.length; i++) {
                int stat = i;
                switch (group) {
                    case "summary" -> {
                        write(files, group, names[i], rankName + ".json", () -> {
                            MetricStatsDict d = new MetricStatsDict();
                            d.put("summary", summary[stat]);
                            return d.toJson(true);
                        });
                        write(files, group, names[i], rankName + SKETCH_SUFFIX, () -> sketches[stat].toJson());
                    }
                    case "histogram" -> {
                        write(files, group, names[i], rankName + ".json", () -> histograms[stat].counts().toJson(true));
                        write(files, group, names[i] + "__chars", rankName + ".json", () -> histograms[stat].chars().toJson(true));
                        MetricStatsDict tokens = histograms[i].tokens();
                        if (tokens.size() > 0) {
                            write(files, group, names[i] + "__tokens", rankName + ".json", () -> tokens.toJson(true));
                        }
                    }
                    default -> write(files, group, names[i], rankName + ".json", () -> {
                        MetricStatsDict d = new MetricStatsDict();
                        for (Map.Entry<String, MetricStats[]> e : (group.equals("fqdn") ? fqdn : suffix).entrySet()) {
                            d.put(e.getKey(), e.getValue()[stat]);
                        }
                        if (topKGroups.contains(group)) {
                            if (topKeys.get() == null) {
                                topKeys.set(d.topKeys(topK));
                            }
                            d = d.select(topKeys.get());
                        }
                        return d.toJson(true);
                    });
                }
            }
        }
        // noted first, then written together: their syncs overlap
        ctx.files().willWriteAll(files.keySet());
        AtomicFile.writeAll(files);
    }

    /**
     * Removes this rank's files of an earlier run in this step's folders (a rank without documents writes
     * none, and {@code __tokens} only with token counts) and, on rank 0, those of ranks this job does not
     * have (an earlier run with more tasks): {@code merge_stats} then sums this run's files alone.
     */
    private void removeStaleFiles(String rankName) throws IOException {
        int removed = 0;
        for (Path folder : statFolders()) {
            Files.deleteIfExists(folder.resolve(rankName + ".json"));
            Files.deleteIfExists(folder.resolve(rankName + SKETCH_SUFFIX));
            if (rank == 0 && Files.isDirectory(folder)) {
                try (Stream<Path> files = Files.list(folder)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        if (rankOf(f.getFileName().toString()) >= ctx.worldSize()) {
                            Files.deleteIfExists(f);
                            removed++;
                        }
                    }
                }
            }
        }
        if (removed > 0) {
            ctx.log().warn("removed " + removed + " stats files of ranks >= " + ctx.worldSize() + " under " + output
                    + ", left by an earlier run with more tasks");
        }
    }

    /** The folders this step writes per-rank files to ({@code <output>/<group>/<stat>}). */
    public List<Path> statFolders() {
        List<Path> folders = new java.util.ArrayList<>();
        for (String group : groups) {
            for (String name : names) {
                for (String stat : group.equals("histogram") ? List.of(name, name + "__chars", name + "__tokens") : List.of(name)) {
                    folders.add(output.resolve(group).resolve(stat));
                }
            }
        }
        return folders;
    }

    /** The rank of a per-rank stats or sketch file name ({@link #RANK_FILE}, {@link #RANK_SKETCH}), else -1. */
    static int rankOf(String fileName) {
        Matcher m = RANK_FILE.matcher(fileName);
        if (!m.matches()) {
            m = RANK_SKETCH.matcher(fileName);
        }
        return m.matches() ? RankName.parse(m.group(1)) : -1;
    }

    private void write(Map<Path, AtomicFile.Content> files, String group, String stat, String file,
                       java.util.function.Supplier<String> json) {
        files.put(output.resolve(group).resolve(stat).resolve(file), () -> json.get().getBytes(StandardCharsets.UTF_8));
    }
}
