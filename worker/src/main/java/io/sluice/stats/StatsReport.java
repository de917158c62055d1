package io.sluice.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.io.AtomicFile;
import io.sluice.io.FileErrors;
import io.sluice.pipeline.MetricStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Renders a merged stats folder ({@code <group>/<stat>/metric.json}, as written by {@code merge_stats})
 * as one self-contained static HTML page: a table of every metric (documents, mean, std, min, p50, p90,
 * p99, max), an inline SVG histogram per metric, and the top domains and suffixes. No scripts, no
 * external resources: the file can be mailed or opened offline.
 */
public final class StatsReport {
    static final int TOP_DOMAINS = 25;
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatsReport() {
    }

    /**
     * What a written report left out: stat folders not merged (see {@link #unmerged}), and the files it could not read,
     * each a message naming the file (the page shows it in place of what the file held).
     */
    public record Written(List<Path> unmerged, List<Path> stale, List<String> unreadable, List<String> miscounted) {
    }

    /** Writes the report atomically. */
    public static Written write(Path folder, Path out) throws IOException {
        if (Files.isDirectory(out)) {
            throw cannotWrite(out, "it is a folder");
        }
        checkFolder(folder);
        List<Path> unmerged = unmerged(folder);
        List<Path> stale = stale(folder);
        List<String> unreadable = new ArrayList<>();
        List<String> miscounted = new ArrayList<>();
        byte[] page = render(folder, unmerged, stale, unreadable, miscounted).getBytes(StandardCharsets.UTF_8);
        try {
            if (isDevice(out)) {
                // written through, as renaming over it replaced the device itself
                Files.write(out, page);
            } else {
                AtomicFile.write(realFile(out), page);
            }
        } catch (IOException e) {
            throw cannotWrite(out, whyNot(out, e));
        }
        return new Written(unmerged, stale, unreadable, miscounted);
    }

    /** Whether {@code out} is a device or a pipe ("-o /dev/stdout"), which the page is written into, not renamed over. */
    public static boolean isDevice(Path out) {
        return Files.exists(out) && !Files.isRegularFile(out);
    }

    /** The file a symbolic link names, which the report replaces: the link itself stays, as with a shell's {@code >}. */
    private static Path realFile(Path out) throws IOException {
        if (!Files.isSymbolicLink(out)) {
            return out;
        }
        return Files.exists(out) ? out.toRealPath() : out.toAbsolutePath().getParent().resolve(Files.readSymbolicLink(out));
    }

    private static IOException cannotWrite(Path out, String reason) {
        return new IOException("could not write the report to " + out + ": " + reason + "; choose another file with --output FILE");
    }

    /**
     * Said of the place the user can act on. java.nio names only a path: "afile: already exists" for a
     * folder to create where a file is, or the report's temporary name for a folder not writable.
     */
    private static String whyNot(Path out, IOException e) {
        Path p = out.toAbsolutePath().getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p != null && !Files.isDirectory(p)) {
            return p + " is a file, not a folder";
        }
        if (p != null && e instanceof AccessDeniedException) {
            return "permission denied in " + p;
        }
        if (p != null && e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason() + " (" + p + ")"; // "Read-only file system", not of the temporary name
        }
        return FileErrors.describe(e);
    }

    /**
     * The stat folders under {@code folder} with per-rank files but no merged file: a merge that has not run
     * or not finished, whose stats the report leaves out.
     */
    public static List<Path> unmerged(Path folder) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path f : MergeStats.foldersWithRankFiles(folder)) {
            if (!Files.exists(f.resolve(MergeStats.MERGED_NAME))) {
                out.add(folder.relativize(f));
            }
        }
        return out;
    }

    /**
     * The stat folders under {@code folder} whose metric.json is older than one of their per-rank files: the stats
     * were written again since the merge (a stats stage run again, a merge killed or not run yet), and the merged
     * numbers are an earlier run's. The page showed two runs' numbers side by side without a word.
     */
    public static List<Path> stale(Path folder) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path f : MergeStats.foldersWithRankFiles(folder)) {
            Path merged = f.resolve(MergeStats.MERGED_NAME);
            if (!Files.exists(merged)) {
                continue;
            }
            java.nio.file.attribute.FileTime mergedAt = Files.getLastModifiedTime(merged);
            for (Path rankFile : MergeStats.rankFiles(f)) {
                if (Files.getLastModifiedTime(rankFile).compareTo(mergedAt) > 0) {
                    out.add(folder.relativize(f));
                    break;
                }
            }
        }
        return out;
    }

    /** The folder given is not one of merged stats: a mistake in the command line rather than a failure. */
    public static final class NotAStatsFolder extends IOException {
        NotAStatsFolder(String message) {
            super(message);
        }
    }

    /** The page, and in {@code unreadable} the files it could not read. */
    static String render(Path folder, List<String> unreadable) throws IOException {
        checkFolder(folder);
        return render(folder, unmerged(folder), stale(folder), unreadable, new ArrayList<>());
    }

    public static String render(Path folder) throws IOException {
        return render(folder, new ArrayList<>());
    }

    private static void checkFolder(Path folder) throws IOException {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new NotAStatsFolder(folder + " is a file, not a stats folder (<group>/<stat>/metric.json)");
        }
        if (!Files.isDirectory(folder)) {
            throw new NotAStatsFolder("stats folder does not exist: " + folder);
        }
    }

    private static String render(Path folder, List<Path> unmerged, List<Path> stale, List<String> unreadable,
                                 List<String> miscounted) throws IOException {
        TreeSet<String> stats = new TreeSet<>();
        stats.addAll(statsIn(folder.resolve("summary")));
        for (String s : statsIn(folder.resolve("histogram"))) {
            if (!s.endsWith("__chars") && !s.endsWith("__tokens")) {
                stats.add(s);
            }
        }
        List<String> fqdnStats = statsIn(folder.resolve("fqdn"));
        List<String> suffixStats = statsIn(folder.resolve("suffix"));
        if (stats.isEmpty() && fqdnStats.isEmpty() && suffixStats.isEmpty()) {
            // stats steps that saw no document write no file: their folder, merged or not, is empty
            boolean empty;
            try (var children = Files.list(folder)) {
                empty = children.findAny().isEmpty();
            }
            throw new NotAStatsFolder(folder + " holds no merged stats (<group>/<stat>/metric.json): " + (empty
                    ? "it is empty, as the stats steps writing there leave it when they saw no document (or have not run)"
                    : "give the folder merge_stats writes (its output, which is its input unless the step sets one)"
                    + (unmerged.isEmpty() ? "" : ", or run merge_stats on these per-rank stats first")));
        }
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Sluice stats: ")
                .append(esc(folder.getFileName() == null ? folder.toString() : folder.getFileName().toString()))
                .append("</title>\n<style>\n").append(CSS).append("</style></head><body>\n");
        h.append("<h1>Corpus statistics</h1>\n<p class=\"sub\">").append(esc(folder.toAbsolutePath().toString()))
                .append("</p>\n");
        if (!unmerged.isEmpty()) {
            h.append("<p class=\"sub\"><b>Not merged:</b> ").append(unmerged.size())
                    .append(" stat folder(s) hold per-rank files but no metric.json and are left out (")
                    .append(esc(firstFew(unmerged)))
                    .append("); run merge_stats.</p>\n");
        }
        if (!stale.isEmpty()) {
            h.append("<p class=\"bad\"><b>Stale:</b> ").append(stale.size()).append(" stat folder(s) hold per-rank files"
                    + " written after their metric.json, whose numbers are then an earlier run's (").append(esc(firstFew(stale))).append("); run merge_stats again (in a job"
                    + " that skips it as complete, delete that stage's completions first).</p>\n");
        }
        int headerAt = h.length();
        Map<String, Long> counts = new LinkedHashMap<>();
        if (!stats.isEmpty()) {
            summaryAndHistograms(h, folder, stats, unreadable, counts);
        }
        CorpusSize size = corpusSize(folder);
        topKeys(h, folder, "fqdn", fqdnStats, "Top domains", size, unreadable, counts, miscounted);
        topKeys(h, folder, "suffix", suffixStats, "Top suffixes", size, unreadable, counts, miscounted);
        miscounted.addAll(0, otherCounts(counts));
        if (!miscounted.isEmpty()) {
            String listed = String.join("; ", miscounted.subList(0, Math.min(5, miscounted.size())))
                    + (miscounted.size() > 5 ? "; and " + (miscounted.size() - 5) + " more" : "");
            h.insert(headerAt, "<p class=\"bad\"><b>Counts disagree:</b> " + esc(listed)
                    + ". The stats of one block, and a stat's groups, count the same documents: these files may come from"
                    + " another run than the rest (a setting, a group or the input changed since), and then show numbers"
                    + " of other documents. If so, delete their folders, or run the stats steps and merge_stats again into"
                    + " a new output.</p>\n");
        }
        if (!unreadable.isEmpty()) {
            h.insert(headerAt, "<p class=\"bad\"><b>Unreadable:</b> " + unreadable.size() + " file(s) could not be read and"
                    + " what they hold is left out (marked below): " + esc(unreadable.get(0)) + "</p>\n");
        }
        h.insert(headerAt, size == null ? "" : size.html());
        h.append("</body></html>\n");
        return h.toString();
    }

    /** "summary/n_lines, histogram/n_lines and 3 more" */
    public static String firstFew(List<Path> folders) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(3, folders.size()); i++) {
            b.append(i == 0 ? "" : ", ").append(folders.get(i));
        }
        return folders.size() > 3 ? b.append(" and ").append(folders.size() - 3).append(" more").toString() : b.toString();
    }

    private static void summaryAndHistograms(StringBuilder h, Path folder, TreeSet<String> stats, List<String> unreadable,
                                             Map<String, Long> counts) throws IOException {
        h.append("<h2>Summary</h2>\n<div class=\"wide\"><table class=\"num\"><tr><th>metric</th><th>docs</th><th>mean</th><th>std</th>")
                .append("<th>min</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>\n");
        boolean fromSketch = false;
        boolean fromHistogram = false;
        Map<String, double[]> percentiles = new java.util.HashMap<>(); // read once, for the table and the figures
        Map<String, List<double[]>> histograms = new java.util.HashMap<>(); // read once too; an unreadable one, its error
        Map<String, String> histogramErrors = new java.util.HashMap<>();
        List<Path> unmergedSummaries = MergeStats.foldersWithRankFiles(folder.resolve("summary"));
        for (String stat : stats) {
            h.append("<tr><td><a href=\"#").append(esc(stat)).append("\" title=\"").append(esc(MetricDescriptions.of(stat)))
                    .append("\">").append(esc(stat)).append("</a>");
            StringBuilder row = new StringBuilder();
            List<double[]> histogram = null;
            try {
                histogram = histogram(folder, stat);
                if (histogram != null) {
                    histograms.put(stat, histogram);
                }
            } catch (IOException e) {
                unreadable.add(e.getMessage()); // its figure says so; the row is shown without it
                histogramErrors.put(stat, e.getMessage());
            }
            try {
                // a row is made whole before it is added: a file of the stat that cannot be read leaves it out alone
                int source = summaryRow(row, folder, stat, unmergedSummaries, percentiles, histogram, unreadable, counts);
                fromSketch |= source == FROM_SKETCH;
                fromHistogram |= source == FROM_HISTOGRAM;
                h.append(source == FROM_HISTOGRAM ? " &dagger;" : "").append("</td>").append(row);
            } catch (IOException e) {
                unreadable.add(e.getMessage());
                h.append("</td><td colspan=\"8\" class=\"bad\">").append(esc(e.getMessage())).append("</td></tr>\n");
            }
        }
        h.append("</table></div>\n");
        if (fromSketch || fromHistogram) {
            h.append("<p class=\"note\">");
            if (fromSketch) {
                // the value at rank floor(q (n - 1)) of the sorted values, p99 the lower of two neighbours: the nearest-rank
                // p99 of 1,466 documents was 10% higher, so the table says which it is
                h.append("p50/p90/p99 come from a mergeable quantile sketch: the value at rank &lfloor;q&middot;(n&minus;1)&rfloor;"
                        + " of the n sorted values, within ").append(fmt(QuantileSketch.RELATIVE_ACCURACY * 100))
                        .append("% relative before it is rounded to 4 digits here (exact for the small whole numbers of a"
                                + " count).");
            }
            if (fromHistogram) {
                // datatrove writes no sketch; its histogram group still counts the documents per rounded value
                h.append(fromSketch ? " " : "").append("&dagger; No sketch (stats written by datatrove, say), one that"
                        + " could not be read, or one that does not count the summary's documents: p50/p90/p99 read from the histogram group, exact but for"
                        + " its rounding of the values.");
            }
            h.append("</p>\n");
        }

        h.append("<h2>Histograms</h2>\n<div class=\"grid\">\n");
        for (String stat : stats) {
            h.append("<figure id=\"").append(esc(stat)).append("\"><figcaption>").append(esc(stat)).append("</figcaption>");
            String description = MetricDescriptions.of(stat);
            if (!description.isEmpty()) {
                h.append("<p class=\"desc\">").append(esc(description)).append("</p>");
            }
            double[] q = percentiles.get(stat); // null when the row's files could not be read
            if (histogramErrors.containsKey(stat)) {
                h.append("<p class=\"bad\">").append(esc(histogramErrors.get(stat))).append("</p>");
            } else if (!histograms.containsKey(stat)) {
                h.append("<p class=\"note\">no histogram group</p>");
            } else {
                h.append(HistogramFigure.html(histograms.get(stat), q == null ? Double.NaN : q[2]));
                h.append(roundedToOneValue(folder, stat, histograms.get(stat)));
            }
            h.append("</figure>\n");
        }
        h.append("</div>\n");
    }

    /**
     * A note under a histogram of one value whose summary has several: "all 700 documents: 0" beside a max of 1 in the
     * table read as a contradiction, where the histogram group had rounded them (a histogram_round_digits of -1, say).
     */
    private static String roundedToOneValue(Path folder, String stat, List<double[]> points) {
        if (points.size() != 1) {
            return "";
        }
        try {
            Summary summary = summary(folder, stat);
            if (summary == null || summary.bare() || summary.stats().n() == 0 || !(summary.stats().min() < summary.stats().max())) {
                return "";
            }
            return "<p class=\"note\">as the histogram group rounded them (histogram_round_digits); the summary's values run"
                    + " from " + esc(fmt(summary.stats().min())) + " to " + esc(fmt(summary.stats().max())) + "</p>";
        } catch (IOException e) {
            return ""; // the table's row names the file
        }
    }

    /** Where a row's p50/p90/p99 came from. */
    private static final int FROM_NOWHERE = 0;
    private static final int FROM_SKETCH = 1;
    private static final int FROM_HISTOGRAM = 2;

    /** The cells of a stat's row after its name; puts its p50/p90/p99 in {@code percentiles}; says where they came from. */
    private static int summaryRow(StringBuilder h, Path folder, String stat, List<Path> unmergedSummaries,
                                  Map<String, double[]> percentiles, List<double[]> histogram, List<String> unreadable,
                                  Map<String, Long> counts) throws IOException {
        Summary summary = summary(folder, stat);
        MetricStats s = summary == null ? null : summary.stats();
        boolean bare = summary != null && summary.bare();
        QuantileSketch sketch;
        try {
            sketch = sketch(folder, stat);
        } catch (IOException e) {
            // its metric.json still gives the row; the percentiles come from the histogram (it blanked the row)
            unreadable.add(e.getMessage());
            sketch = null;
        }
        // a sketch that counts other documents than the summary (merged while a rank's sketch was missing, by a
        // version that merged the others) would give their percentiles: the histogram's are read instead
        if (sketch != null && s != null && sketch.count() != s.n() && !bare) {
            sketch = null;
        }
        boolean integers = s != null && s.integral();
        double[] q = sketch == null ? new double[] {Double.NaN, Double.NaN, Double.NaN}
                : new double[] {sketch.quantile(0.5, integers), sketch.quantile(0.9, integers), sketch.quantile(0.99, integers)};
        int source = Double.isNaN(q[0]) ? FROM_NOWHERE : FROM_SKETCH;
        if (source == FROM_NOWHERE && histogram != null) {
            q = histogramQuantiles(histogram);
            source = Double.isNaN(q[0]) ? FROM_NOWHERE : FROM_HISTOGRAM;
        }
        percentiles.put(stat, q);
        long histogramDocs = histogram == null ? -1 : documents(histogram);
        if (s == null) {
            boolean perRank = unmergedSummaries.stream().anyMatch(f -> f.getFileName().toString().equals(stat));
            long docs = histogramDocs;
            if (perRank || docs < 0) {
                h.append("<td colspan=\"8\">").append(perRank ? "(summary not merged)" : "(no summary group)")
                        .append("</td></tr>\n");
                return FROM_NOWHERE;
            }
            // no summary group: the histogram's documents, percentiles and extremes (its keys, the values rounded as
            // the group rounds them), its mean and spread unknown
            // (docs >= 0: there is a histogram; without numeric keys, no range)
            double[] range = histogram.isEmpty() ? new double[] {Double.NaN, Double.NaN}
                    : new double[] {histogram.get(0)[0], histogram.get(histogram.size() - 1)[0]};
            counts.put(stat, docs);
            h.append(td(fmt(docs))).append("<td colspan=\"2\" class=\"note\">(no summary group)</td>").append(td(fmt(range[0])));
            for (double v : q) {
                h.append(td(Double.isNaN(v) ? "n/a" : fmt(v)));
            }
            h.append(td(fmt(range[1]))).append("</tr>\n");
            return source;
        }
        // the sketch counts exactly; so does the histogram group. datatrove's metric.json stores an all-zero
        // metric as a bare 0, which has no count (the report said 1 document of 700)
        long docs = sketch == null ? histogramDocs : sketch.count();
        if (docs < 0 && bare) {
            h.append(UNKNOWN_DOCS);
        } else {
            if (docs >= 0) {
                // exact, from the sketch or the histogram; a summary's n alone may be datatrove's merge of bare
                // zeros, each read as one document ("485 of 726"), which is no sign of another run
                counts.put(stat, docs);
            }
            h.append(td(fmt(docs < 0 ? s.n() : docs)));
        }
        // a stat of no documents has no extremes (its min and max are the inf and -inf it starts from)
        boolean none = !bare && s.n() == 0;
        h.append(td(fmt(s.mean()))).append(td(fmt(s.stdDev()))).append(none ? "<td></td>" : td(fmt(s.min())));
        for (double v : q) {
            // a value the metric took lies within [min, max]; a bare 0 (datatrove's form when the values sum to 0,
            // -1 and 1 say) has no extremes, and clamping to them said 0 beside a histogram of -1 and 1
            double shown = bare || !(s.min() <= s.max()) ? v : Math.min(s.max(), Math.max(s.min(), v));
            h.append(td(Double.isNaN(v) ? "n/a" : fmt(shown)));
        }
        h.append(none ? "<td></td>" : td(fmt(s.max()))).append("</tr>\n");
        return source;
    }

    private static List<String> statsIn(Path group) throws IOException {
        List<String> out = new ArrayList<>();
        if (Files.isDirectory(group)) {
            try (Stream<Path> s = Files.list(group)) {
                s.filter(p -> Files.exists(p.resolve(MergeStats.MERGED_NAME)))
                        .forEach(p -> out.add(p.getFileName().toString()));
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * A stat's merged summary, and whether it was written as a bare number (datatrove's all-zero form, which keeps no
     * document count); null when there is no summary group, or its file has no "summary" key.
     */
    private record Summary(MetricStats stats, boolean bare) {
    }

    private static Summary summary(Path folder, String stat) throws IOException {
        Path f = folder.resolve("summary").resolve(stat).resolve(MergeStats.MERGED_NAME);
        if (!Files.exists(f)) {
            return null;
        }
        JsonNode json = MergeStats.readJson(f);
        MetricStats stats = MergeStats.dictOf(f, json).getOrNull("summary");
        return stats == null ? null : new Summary(stats, json.get("summary").isNumber());
    }

    /** The stat's merged quantile sketch; null when there is none. */
    private static QuantileSketch sketch(Path folder, String stat) throws IOException {
        Path f = folder.resolve("summary").resolve(stat).resolve(MergeStats.MERGED_QUANTILES);
        return Files.exists(f) ? MergeStats.readSketch(f) : null;
    }

    /** The stat's merged histogram group as {@link #histogramPoints}; null when there is none. */
    private static List<double[]> histogram(Path folder, String stat) throws IOException {
        Path f = folder.resolve("histogram").resolve(stat).resolve(MergeStats.MERGED_NAME);
        return Files.exists(f) ? histogramPoints(MergeStats.readDict(f)) : null;
    }

    static long documents(List<double[]> histogramPoints) {
        long count = 0;
        for (double[] p : histogramPoints) {
            count += (long) p[1];
        }
        return count;
    }

    /**
     * The stats whose documents differ from those of the other stats of their block (the count most of them share), as
     * "short_word_ratio_3 counts 400 documents, the other word stats 160": a block counts every document once in
     * each of its stats, so such a folder was likely merged from another run's files. Stats of different blocks are
     * not compared (one block may run before a filter, another after it, into one folder), nor a block whose counts
     * have no clear majority. Empty when all agree or nothing is known.
     */
    private static List<String> otherCounts(Map<String, Long> counts) {
        Map<String, Map<Long, Integer>> votes = new LinkedHashMap<>(); // block -> count -> stats
        counts.forEach((stat, n) -> {
            String block = MetricDescriptions.blockOf(stat);
            if (block != null) {
                votes.computeIfAbsent(block, k -> new LinkedHashMap<>()).merge(n, 1, Integer::sum);
            }
        });
        List<String> out = new ArrayList<>();
        counts.forEach((stat, n) -> {
            Map<Long, Integer> v = votes.get(MetricDescriptions.blockOf(stat));
            if (v == null || v.size() < 2) {
                return;
            }
            int top = v.values().stream().max(Integer::compare).orElse(0);
            List<Long> majority = v.entrySet().stream().filter(e -> e.getValue() == top).map(Map.Entry::getKey).toList();
            if (majority.size() == 1 && !n.equals(majority.get(0))) {
                out.add(stat + " counts " + fmt(n) + " documents, the other " + MetricDescriptions.blockOf(stat) + " stats "
                        + fmt(majority.get(0)));
            }
        });
        return out;
    }

    /** The corpus's documents and characters; null when neither {@code length}'s summary nor its histogram can be read. */
    private record CorpusSize(long documents, double characters) {
        String html() {
            return "<p class=\"sub\">" + fmt(documents) + " documents, " + fmt(characters) + " characters</p>\n";
        }
    }

    /** From the summary of {@code length}, else from its histogram group (documents per length, and {@code length__chars}). */
    private static CorpusSize corpusSize(Path folder) {
        try {
            Summary lengths = summary(folder, "length");
            if (lengths != null && !lengths.bare()) {
                return new CorpusSize(lengths.stats().n(), lengths.stats().total());
            }
            List<double[]> histogram = histogram(folder, "length");
            Path chars = folder.resolve("histogram/length__chars").resolve(MergeStats.MERGED_NAME);
            if (histogram == null || !Files.exists(chars)) {
                return null;
            }
            double characters = 0;
            for (MetricStats bin : MergeStats.readDict(chars).entries().values()) {
                characters += bin.total();
            }
            return new CorpusSize(documents(histogram), characters);
        } catch (IOException e) {
            return null; // the table says why its row is missing
        }
    }

    /**
     * p50, p90, p99 read from a merged histogram group's points (documents per rounded value), at the ranks the sketch
     * uses ({@link QuantileSketch#quantile}); NaN when it counts no documents.
     */
    static double[] histogramQuantiles(List<double[]> points) {
        double[] q = {Double.NaN, Double.NaN, Double.NaN};
        long count = documents(points);
        double[] at = {0.5, 0.9, 0.99};
        for (int i = 0; i < at.length && count > 0; i++) {
            long rank = (long) Math.floor(at[i] * (count - 1));
            long seen = 0;
            for (double[] p : points) {
                seen += (long) p[1];
                if (seen > rank) {
                    q[i] = p[0];
                    break;
                }
            }
        }
        return q;
    }

    /** {value, documents} per histogram key, by value; a bin's documents are its total (one per document). */
    static List<double[]> histogramPoints(MetricStatsDict hist) {
        List<double[]> points = new ArrayList<>();
        for (Map.Entry<String, MetricStats> e : hist.entries().entrySet()) {
            try {
                // Python's str() spells the non-finite ones inf, -inf and nan; Java's parser takes Infinity and NaN
                double value = switch (e.getKey()) {
                    case "inf" -> Double.POSITIVE_INFINITY;
                    case "-inf" -> Double.NEGATIVE_INFINITY;
                    case "nan" -> Double.NaN;
                    default -> Double.parseDouble(e.getKey());
                };
                points.add(new double[] {value, e.getValue().total()});
            } catch (NumberFormatException ignored) {
                // a histogram key is always a number; anything else is not counted
            }
        }
        points.sort(Comparator.comparingDouble(p -> p[0]));
        return points;
    }

    /**
     * The most frequent keys of a domain group, by documents, with the mean of length, or of the stat counting the most
     * documents under its keys.
     */
    private static void topKeys(StringBuilder h, Path folder, String group, List<String> stats, String title,
                                CorpusSize corpus, List<String> unreadable, Map<String, Long> counts,
                                List<String> miscounted) throws IOException {
        if (stats.isEmpty()) {
            return;
        }
        // a key's documents: the largest count among its stats, as a stat that is 0 in every document of the key
        // is stored as a bare 0 without its count (datatrove's form), and a stat may have cut the key by its top_k
        Map<String, Long> docs = new LinkedHashMap<>();
        Map<String, Long> docsUnderKeys = new LinkedHashMap<>(); // per stat read
        for (String stat : stats) {
            Path f = folder.resolve(group).resolve(stat).resolve(MergeStats.MERGED_NAME);
            long[] underKeys = {0};
            try {
                MergeStats.forEachEntry(f, (key, s, bare) -> {
                    docs.merge(key, bare ? UNKNOWN_COUNT : s.n(), Math::max);
                    underKeys[0] += bare ? 0 : s.n();
                });
            } catch (IOException e) {
                unreadable.add(e.getMessage()); // the other stats count the keys' documents too
                continue;
            }
            Long summaryDocs = counts.get(stat);
            if (summaryDocs != null && underKeys[0] > summaryDocs) {
                // a stat's groups are written together from the same documents, the keys' at most all of them
                miscounted.add(group + "/" + stat + " counts " + fmt(underKeys[0]) + " documents under its keys, more than"
                        + " the " + fmt(summaryDocs) + " of its summary");
            }
            docsUnderKeys.put(stat, underKeys[0]);
        }
        if (docsUnderKeys.isEmpty()) {
            h.append("<h2>").append(title).append("</h2>\n<p class=\"bad\">No file of the ").append(group)
                    .append(" group could be read (listed at the top).</p>\n");
            return;
        }
        // the mean of length, or of the stat counting the most documents under its keys: the first stat by name was
        // taken, and with its file empty (another url_key) the column was blank
        String meanOf = docsUnderKeys.getOrDefault("length", 0L) > 0 ? "length" : docsUnderKeys.entrySet().stream()
                .max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        // a stats block before a filter counts more documents than length after it, in the same folder: shares of the
        // corpus's documents went past 100% (402%); they are shares of the most documents one of these stats counted
        // (a stat's count is its summary's when the table had an exact one; the keys' documents are at least any stat's)
        long covered = 0;
        for (long n : docs.values()) {
            covered += Math.max(0, n);
        }
        long whole = -1;
        if (corpus != null) {
            whole = Math.max(corpus.documents(), covered);
            for (String stat : docsUnderKeys.keySet()) {
                whole = Math.max(whole, counts.getOrDefault(stat, -1L));
            }
        }
        h.append("<h2>").append(title).append("</h2>\n<div class=\"wide\"><table class=\"num\"><tr><th>").append(group)
                .append("</th><th>docs</th>").append(corpus == null ? "" : "<th>% of docs</th>").append("<th>mean ").append(esc(meanOf)).append("</th></tr>\n");
        List<String> keys = new ArrayList<>(docs.keySet());
        keys.sort(Comparator.comparingLong((String k) -> docs.get(k)).reversed()); // stable: ties in the files' order
        List<String> shown = keys.subList(0, Math.min(TOP_DOMAINS, keys.size()));
        Map<String, MetricStats> means = new java.util.HashMap<>(); // the shown keys' only: read again, a key at a time
        java.util.Set<String> wanted = new java.util.HashSet<>(shown);
        MergeStats.forEachEntry(folder.resolve(group).resolve(meanOf).resolve(MergeStats.MERGED_NAME), (key, s, bare) -> {
            if (wanted.contains(key)) {
                means.put(key, s);
            }
        });
        for (String key : shown) {
            long n = docs.get(key);
            MetricStats mean = means.get(key);
            // "" is datatrove's key for a URL without a registrable host (an IP address, localhost): not a missing URL
            h.append("<tr><td class=\"key\">").append(key.isEmpty() ? "<i>(no registrable host)</i>" : escKey(key)).append("</td>")
                    .append(n == UNKNOWN_COUNT ? UNKNOWN_DOCS : td(fmt(n)));
            if (corpus != null) {
                h.append(n == UNKNOWN_COUNT ? "<td></td>" : td(percentOf(n, whole)));
            }
            h.append(mean == null ? "<td></td>" : td(fmt(mean.mean()))).append("</tr>\n");
        }
        h.append("</table></div>\n<p class=\"note\">");
        if (keys.isEmpty()) {
            // the run said so on its console; the report is often read later, by someone else
            h.append("No keys: no document had a URL where the stats steps' url_key looked (their task logs count such"
                    + " documents as no_url_").append(group).append(").</p>\n");
            return;
        }
        // most web corpora have a URL in every document; a mixed one (e-mail, books) may have few, and a table of the
        // few alone read as a picture of the whole corpus
        String keyCount = fmt(keys.size()) + (keys.size() == 1 ? " key" : " keys")
                + (keys.size() > TOP_DOMAINS ? " (the top " + TOP_DOMAINS + " shown)" : "");
        if (corpus != null) {
            h.append(fmt(covered)).append(" of the ").append(fmt(whole)).append(" documents (")
                    .append(percentOf(covered, whole)).append(") are under these ").append(keyCount)
                    .append("; the others had no URL, or were under keys top_k dropped. ");
            if (whole > corpus.documents()) {
                h.append("The stats of this group counted more documents than length's ").append(fmt(corpus.documents()))
                        .append(" (a filter between the stats steps, say): shares are of the ").append(fmt(whole))
                        .append(" of the one counting most. ");
            }
        } else {
            h.append(keyCount).append(". ");
        }
        // each rank writes its top_k keys and merge_stats keeps its top_k: a key some ranks cut is counted short
        h.append("Each rank keeps its top_k keys (100,000 unless the steps set top_k), and so does merge_stats: if the"
                + " group had more, rarer keys were dropped with their documents, and some counts are low.</p>\n");
    }

    /** A key whose every stat is a bare number: sorts last, shown as {@link #UNKNOWN_DOCS}. */
    private static final long UNKNOWN_COUNT = -1;
    /** The docs cell of a metric stored as a bare number (datatrove's form of one that is 0 in every document). */
    private static final String UNKNOWN_DOCS = "<td title=\"stored as a bare number, datatrove's form of a metric that is 0 in"
            + " every document, which keeps no document count\">?</td>";

    private static String percentOf(long part, long whole) {
        return whole <= 0 ? "" : new java.math.BigDecimal(100.0 * part / whole).round(new java.math.MathContext(3))
                .stripTrailingZeros().toPlainString() + "%";
    }

    private static String td(String s) {
        return "<td>" + esc(s) + "</td>";
    }

    /**
     * Short human form: integers as such, otherwise 4 significant digits; from 1e15 on in exponent form (a 1e150 filled
     * a table cell with 151 digits); NaN and the infinities as Python prints them (a variance past about 1e308 is one).
     */
    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (Math.abs(v) >= 1e15) {
            return String.format(Locale.ROOT, "%.3e", v);
        }
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%,d", Math.round(v)); // as the whole numbers beside it
        }
        if (Math.abs(v) >= 1e-3) {
            return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%.3e", v);
    }

    /** {@link #esc} for a key of the data (a host), where a line break or tab would read as a space: shown as code. */
    static String escKey(String s) {
        return esc(s.replace("\n", "\\u000a").replace("\t", "\\u0009"));
    }

    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                case '\n', '\t' -> b.append((char) c);
                default -> {
                    if (shownAsCode(c)) {
                        b.append(c <= 0xFFFF ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /**
     * Characters a browser would not show as written: bidirectional overrides and other format characters ("x.\u202eevil.com"
     * read as "x.moc.live", a domain that is not in the data; tag characters), controls (NUL, ESC, U+0085), line and
     * paragraph separators, lone surrogates, unassigned code points, spaces other than ' ', and the rest of Unicode's
     * default-ignorable code points, which are not format characters: variation selectors and the combining grapheme
     * joiner ("paypal\ufe0f.com" and "paypal\u034f.com" were two more rows reading "paypal.com"), Hangul fillers. They
     * are shown as their code.
     */
    private static boolean shownAsCode(int c) {
        return switch (Character.getType(c)) {
            case Character.FORMAT, Character.CONTROL, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.UNASSIGNED -> true;
            case Character.SPACE_SEPARATOR -> c != ' ';
            default -> c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F)
                    || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFFA0 || (c >= 0xE0000 && c <= 0xE0FFF);
        };
    }

    private static final String CSS = """
            body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#222;background:#fff}
            h1{margin:0 0 4px}h2{margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
            .sub{color:#666;margin:2px 0}.note{color:#777;font-size:12px}
            table.num{border-collapse:collapse}table.num td,table.num th{padding:3px 10px;border-bottom:1px solid #eee}
            table.num td:not(:first-child){text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            .wide{overflow-x:auto;max-width:100%}
            table.num th{text-align:right;background:#f5f5f5}table.num th:first-child{text-align:left}
            td.key{max-width:40em;overflow-wrap:anywhere}.bad{color:#a11}
            a{color:#1f5fa8;text-decoration:none}
            .grid{display:flex;flex-wrap:wrap;gap:12px}
            figure{margin:0;padding:8px;border:1px solid #e3e3e3;border-radius:6px;width:360px}
            figcaption{font-weight:600;margin-bottom:2px}.desc{color:#666;font-size:12px;margin:0 0 4px}
            svg rect{fill:#3b7dd8}svg rect.over{fill:#d9822b}svg .axis{stroke:#999}svg text{font-size:11px;fill:#555}svg text.max{fill:#999}
            """;
}
