package io.sluice.stats;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.sluice.doc.Document;
import io.sluice.io.AtomicFile;
import io.sluice.io.PyJson;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.DocumentSink;
import io.sluice.pipeline.MetricStats;
import io.sluice.pipeline.Step;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Step {@code merge_stats} (datatrove's {@code StatsMerger}): sums the per-rank files
 * {@code NNNNN.json} of every leaf folder {@code <input>/<group>/<stat>/} into {@code metric.json}
 * under the same relative folder of the output, and the per-rank quantile sketches into
 * {@code quantiles.json} (which also states p50, p90 and p99). The groups of {@code top_k_groups} (fqdn and
 * suffix) keep their {@code top_k} most frequent keys. Folders are shared out over ranks as {@code folders[rank::world_size]}
 * of the sorted folder list, so any number of ranks can merge. Work happens in {@code finish}; documents,
 * if the stage has any, pass through.
 *
 * <p>Keys: {@code input} (required), {@code output} (default: input), {@code remove_input} (false: delete
 * the per-rank files once the merged file is committed), {@code top_k} (100000), {@code top_k_groups} (fqdn and suffix).
 */
public final class MergeStats implements Step {
    public static final String MERGED_NAME = "metric.json";
    public static final String MERGED_QUANTILES = "quantiles.json";
    /**
     * Beside a metric.json merged with remove_input: the ranks whose files it sums, which are gone. A rank of the
     * stats stage run again since writes its file beside it, and a merge of that file alone would replace the
     * sums of every rank with one rank's, exit 0; with this list the merge refuses instead (see {@link #checkNoPartOfRemoved}).
     */
    public static final String MERGED_RANKS = "merged_ranks.json";
    /*
     * Histogram files hold thousands of distinct keys each ("0.123", "5216"): Jackson's default interning and
     * canonicalizing of field names took a fifth of a merge's time, rehashing its symbol table, for names met once.
     */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
                    .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                    .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                    .build())
            .enable(JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final Path input;
    private final Path output;
    private final boolean removeInput;
    private final int topK;
    private final Set<String> topKGroups;
    private StepContext ctx;
    /** Folders whose ranks have sketches but not all of them, and which rank has none, for one warning. */
    private final List<String> foldersWithoutSketch = new ArrayList<>();

    public MergeStats(StepArgs args) {
        input = args.path("input");
        output = args.optionalPath("output", input.toString());
        removeInput = args.bool("remove_input", false);
        topK = StatArgs.topK(args);
        topKGroups = StatArgs.topKGroups(args);
    }

    public Path input() {
        return input;
    }

    public Path output() {
        return output;
    }

    @Override
    public void open(StepContext context) {
        ctx = context;
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        next.accept(doc);
    }

    @Override
    public void finish(DocumentSink next) throws IOException {
        Path removing = output.resolve(String.format(".merge_stats-%05d.removing", ctx.rank()));
        finishRemovalLists();
        List<String> folders = leafFolders(input, true);
        if (folders.isEmpty()) {
            long files;
            try (Stream<Path> s = Files.list(input)) {
                files = s.filter(f -> !f.getFileName().toString().startsWith(".")).count();
            }
            if (files > 0) {
                // a data folder, say: what a merge of it would mark complete is nothing
                throw new IOException(input + " holds " + files + " file(s) but no stats folders (<group>/<stat>/NNNNN.json):"
                        + " merge_stats' input is the output folder of the stats steps");
            }
            // the stats steps ran (their folder exists, empty) and saw no documents: nothing to merge, as in datatrove
            ctx.log().warn("no statistics under " + input + ": the stats steps writing there saw no documents");
            return;
        }
        if (!holdsRankFiles(input, folders) && !holdsMergedStats(folders)) {
            // a merge run before (or without) its stats stage would otherwise be marked complete, and skipped forever
            throw new IOException("no per-rank stats files under " + input + ": the stats steps writing there have"
                    + " not run, or their files were removed without a merge into " + output);
        }
        List<String> mine = new ArrayList<>();
        for (int i = ctx.rank(); i < folders.size(); i += ctx.worldSize()) {
            mine.add(folders.get(i));
        }
        // Merged files are written under a pending name and renamed once every folder of the rank is merged:
        // a malformed input fails the rank with no merged file changed, so no report shows a half merge.
        List<Path> pending = new ArrayList<>();
        List<Path> consumed = new ArrayList<>();
        List<Path> obsolete = new ArrayList<>();
        int merged = 0;
        try {
            Map<String, List<String>> byStat = foldersByStat(folders);
            for (String folder : mine) {
                checkNoRankFileMissing(folder, byStat.getOrDefault(statOf(folder), List.of()));
                if (mergeFolder(folder, pending, consumed, obsolete)) {
                    merged++;
                }
            }
        } catch (IOException | RuntimeException e) {
            for (Path p : pending) {
                Files.deleteIfExists(p);
            }
            throw e;
        }
        for (Path p : pending) {
            String name = p.getFileName().toString();
            Files.move(p, p.resolveSibling(name.substring(0, name.length() - PENDING.length())),
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        for (Path p : obsolete) {
            Files.deleteIfExists(p);
        }
        if (removeInput && !consumed.isEmpty()) {
            // Noted first: a rank killed while deleting would otherwise, run again, merge the inputs left
            // and overwrite metric.json with a part of the sums. (Nothing to remove, as when a killed run's list
            // finished the work, is no list: its log said "removed 0" after "removed 192".)
            StringBuilder list = new StringBuilder(FOLDERS_MERGED + merged + "\n");
            for (Path f : consumed) {
                list.append(input.relativize(f).toString().replace('\\', '/')).append('\t').append(identity(f)).append('\n');
            }
            AtomicFile.write(removing, list.toString().getBytes(StandardCharsets.UTF_8));
            finishRemoving(removing);
        } else {
            ctx.stats().add("folders_merged", merged);
        }
        if (!foldersWithoutSketch.isEmpty()) {
            ctx.log().warn(foldersWithoutSketch.size() + " stat folder(s) hold per-rank files and quantile sketches"
                    + " (NNNNN.quantiles.json; datatrove writes none) that do not pair up, and got no quantiles.json: the"
                    + " report reads their percentiles from the histogram group. The first: " + foldersWithoutSketch.get(0));
        }
        if (merged == 0 && !mine.isEmpty() && killedMergeLists == 0
                && mine.stream().anyMatch(f -> Files.exists(output.resolve(f).resolve(MERGED_RANKS)))) {
            // a merge run again after one with remove_input: its files stand, and this merge's settings (top_k) were not
            // applied to them, which "merged 0 stat folders" left to be guessed
            ctx.log().warn("nothing to merge in this rank's " + mine.size() + " folder(s): their per-rank files were"
                    + " removed by an earlier merge with remove_input, whose metric.json files stay as they are (this"
                    + " merge's top_k not applied); run the stats steps again to merge anew");
        }
        ctx.log().info("merged " + merged + " stat folders of " + folders.size() + " under " + input
                + (removedByLists > 0 ? " (" + removedByLists + " merged per-rank files of a killed merge removed first)" : ""));
    }

    private static final Pattern REMOVAL_LIST = Pattern.compile("\\.merge_stats-(\\d{5,})\\.removing");

    /**
     * Finishes the removal lists that merges killed while removing their inputs left, whichever rank wrote them: what
     * is left of those inputs is a part of the sums, removed (even if remove_input was turned off since), not merged.
     * Then the rank merges its share as always; the folders of a finished list have no per-rank files left. Before,
     * a rank finished its own list and stopped: run again with another number of tasks, it left its new share
     * unmerged, and the list of a rank the job no longer has was never finished (exit 0, a third of the folders
     * without metric.json). Every rank reads every list before it merges, so that none merges a folder whose
     * removal another list has not finished; the rank that deletes a list counts its folders in the stats, so each
     * list counts once, whichever rank finishes it.
     */
    private void finishRemovalLists() throws IOException {
        if (!Files.isDirectory(output)) {
            return;
        }
        for (Path list : list(output, REMOVAL_LIST)) {
            finishRemoving(list);
            killedMergeLists++;
        }
        removedByLists = removedFiles;
    }

    /** Per-rank files this rank removed, in all; of them, those of killed merges' lists (for the log). */
    private int removedFiles;
    private int removedByLists;
    /**
     * The removal lists of killed merges this rank found: folders it then finds merged, with no per-rank file left, are
     * that merge's work, not an earlier finished merge's (whose settings this one would not have applied).
     */
    private int killedMergeLists;

    /** The first line of a removal list: the folders its merge merged, for the stats of a run that finishes it. */
    private static final String FOLDERS_MERGED = "folders_merged\t";

    /**
     * Which version of a per-rank file a removal list means: its size and modification time. A stats file written
     * again since (by a changed stats stage, run before this merge stage ran again) is another file under the
     * same name, with the sums of another run. Not the inode: on NFS its device part is the client's, and a
     * merge requeued on another node would take its own list for an earlier run's, and merge a part of the sums.
     */
    static String identity(Path f) throws IOException {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        return a.size() + "\t" + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /**
     * Deletes the inputs listed in {@code removing}, then the list: the merged files are already in place. When
     * a listed file still there is not the one the list names (the stats were written again since the merge was
     * killed), the list is an earlier run's: it is dropped, nothing is deleted, and false is returned, for a merge
     * of what the folder holds now. Before, the new per-rank files were deleted unmerged and the killed run's
     * metric.json files stayed, exit 0.
     */
    private boolean finishRemoving(Path removing) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(removing, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException finishedByAnotherRank) {
            return true;
        }
        long merged = -1;
        List<Path> toDelete = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith(FOLDERS_MERGED)) {
                merged = Long.parseLong(line.substring(FOLDERS_MERGED.length()).strip());
                continue;
            }
            if (line.isEmpty()) {
                continue;
            }
            int tab = line.indexOf('\t');
            Path f = input.resolve(tab < 0 ? line : line.substring(0, tab));
            if (!Files.exists(f)) {
                continue;
            }
            if (tab >= 0 && !identity(f).equals(line.substring(tab + 1))) {
                Files.deleteIfExists(removing);
                ctx.log().warn("dropped " + removing + ", the removal list of a merge killed while removing its inputs:"
                        + " " + f + " has been written again since, so the stats under " + input + " are merged anew");
                return false;
            }
            toDelete.add(f);
        }
        // counted as deleted here: ranks finishing one list at the same time each claimed all of its files
        int removed = 0;
        for (Path f : toDelete) {
            removed += Files.deleteIfExists(f) ? 1 : 0;
        }
        // the rank that deletes the list counts its folders: another rank may finish it at the same time
        if (Files.deleteIfExists(removing) && merged >= 0) {
            ctx.stats().add("folders_merged", merged);
        }
        removedFiles += removed;
        ctx.log().info("removed " + removed + " merged per-rank files under " + input);
        return true;
    }

    /** Whether a merge has written into the output already (its inputs then may be gone, with remove_input). */
    private boolean holdsMergedStats(List<String> folders) {
        return folders.stream().anyMatch(f -> Files.exists(output.resolve(f).resolve(MERGED_NAME)));
    }

    /**
     * Relative paths of the folders below {@code root} without sub-folders, sorted as strings. A folder
     * counts when its per-rank files are gone (merged with remove_input by another rank), so that every rank
     * shares out the same list; listing tolerates files deleted meanwhile.
     */
    static List<String> leafFolders(Path root) throws IOException {
        return leafFolders(root, false);
    }

    /**
     * {@link #leafFolders(Path)}; {@code strict}, for a merge, refuses a folder that holds per-rank files and a
     * sub-folder (a report only reads, and leaves those files out as datatrove's merge would).
     */
    static List<String> leafFolders(Path root, boolean strict) throws IOException {
        if (Files.exists(root) && !Files.isDirectory(root)) {
            throw new IOException(root + " is a file, not a stats folder (<group>/<stat>/NNNNN.json)");
        }
        if (!Files.isDirectory(root)) {
            throw new IOException("stats input folder does not exist: " + root);
        }
        List<String> out = new ArrayList<>();
        collectLeaves(root, root, out, strict);
        out.sort(null);
        return out;
    }

    private static void collectLeaves(Path root, Path dir, List<String> out, boolean strict) throws IOException {
        Path sub = null;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
            for (Path child : children) {
                // hidden folders (.cache, .git) are no stats, nor are a logging dir's per-rank pipeline stats
                // (<stage>/stats/NNNNN.json in Sluice's, stats/NNNNN.json in datatrove's), which look like a stat's files:
                // merging a job's root folder failed on them
                if (Files.isDirectory(child) && !child.getFileName().toString().startsWith(".") && !isPipelineStats(child)) {
                    sub = child;
                    collectLeaves(root, child, out, strict);
                }
            }
        }
        if (sub == null && !dir.equals(root)) {
            out.add(root.relativize(dir).toString().replace('\\', '/'));
        } else if (strict && sub != null && !rankFiles(dir).isEmpty()) {
            // datatrove would merge the sub-folder and leave these files out, with no word
            throw new IOException(dir + " holds per-rank stats files and a folder, " + sub.getFileName() + ": a stat's"
                    + " folder (<group>/<stat>/NNNNN.json) has no sub-folders, and these files would not be merged. Move"
                    + " the folder out of it");
        }
    }

    /** A logging dir's folder of per-rank pipeline stats: "stats" beside the ranks' "completions" (Sluice's and datatrove's). */
    private static boolean isPipelineStats(Path dir) {
        return dir.getFileName().toString().equals("stats") && Files.isDirectory(dir.resolveSibling("completions"));
    }

    /** Whether {@code root}, an existing folder, has stat folders ({@code <group>/<stat>}), with per-rank files or merged ones. */
    public static boolean hasStatFolders(Path root) throws IOException {
        return !leafFolders(root).isEmpty();
    }

    /** The stat folders under {@code root} ({@code <group>/<stat>}) that hold per-rank files; none when it does not exist. */
    public static List<Path> foldersWithRankFiles(Path root) throws IOException {
        List<Path> out = new ArrayList<>();
        if (Files.isDirectory(root)) {
            for (String folder : leafFolders(root)) {
                if (!rankFiles(root.resolve(folder)).isEmpty()) {
                    out.add(root.resolve(folder));
                }
            }
        }
        return out;
    }

    /** The per-rank files of a stat folder. */
    public static List<Path> rankFiles(Path statFolder) throws IOException {
        return ranksFiles(statFolder, StatsStep.RANK_FILE);
    }

    /** The stat folders under {@code root}, relative to it, that hold a merged file and no per-rank files. */
    public static List<String> foldersMergedOnly(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        if (Files.isDirectory(root)) {
            for (String folder : leafFolders(root)) {
                Path dir = root.resolve(folder);
                if (Files.exists(dir.resolve(MERGED_NAME)) && rankFiles(dir).isEmpty()) {
                    out.add(folder);
                }
            }
        }
        return out;
    }

    /** Whether any folder of the input still holds a per-rank file. */
    private static boolean holdsRankFiles(Path input, List<String> folders) throws IOException {
        for (String folder : folders) {
            if (!rankFiles(input.resolve(folder)).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The stat a folder holds ({@code <group>/<stat>}): its name, a histogram's {@code __chars} companion under its stat;
     * null for a {@code __tokens} companion (written only by ranks whose documents had token counts) or a folder of
     * another depth.
     */
    static String statOf(String folder) {
        String[] parts = folder.split("/");
        if (parts.length != 2 || parts[1].endsWith("__tokens")) {
            return null;
        }
        return parts[1].endsWith("__chars") ? parts[1].substring(0, parts[1].length() - "__chars".length()) : parts[1];
    }

    private static Map<String, List<String>> foldersByStat(List<String> folders) {
        Map<String, List<String>> out = new java.util.HashMap<>();
        for (String f : folders) {
            String stat = statOf(f);
            if (stat != null) {
                out.computeIfAbsent(stat, k -> new ArrayList<>()).add(f);
            }
        }
        return out;
    }

    /**
     * Refuses a folder that lacks the file of a rank whose files its stat's other folders hold: a stats rank writes
     * every group of a stat at once, so one missing (deleted by hand, lost) would merge as fewer documents than the
     * others count, without a word (histogram/n_words said 3,366 documents where every other folder said 4,066).
     * Folders another rank has merged with remove_input hold no files, and say nothing here.
     */
    private void checkNoRankFileMissing(String folder, List<String> sameStat) throws IOException {
        if (sameStat.size() < 2) {
            return;
        }
        TreeSet<Integer> here = ranksOf(rankFiles(input.resolve(folder)));
        if (here.isEmpty()) {
            return;
        }
        for (String other : sameStat) {
            TreeSet<Integer> missing = ranksOf(rankFiles(input.resolve(other)));
            missing.removeAll(here);
            if (!missing.isEmpty()) {
                int rank = missing.first();
                String otherGroup = other.substring(0, other.indexOf('/'));
                throw new IOException(input.resolve(folder) + ": no " + String.format("%05d.json", rank) + ", where "
                        + input.resolve(other).resolve(String.format("%05d.json", rank)) + " of the same stat is: a stats rank"
                        + " writes every group of a stat at once, and merging without it would count fewer documents."
                        + " If the stats stage is still running (another job, or a merge submitted without waiting for it),"
                        + " merge once it has finished; else " + remakeAdvice(rank) + ". If the stats steps no longer write the '"
                        + otherGroup + "' group there (or run fewer tasks), its files are an earlier run's: delete "
                        + input.resolve(otherGroup)
                        + " and merge again");
            }
        }
    }

    /**
     * Refuses a rank's file of a group that counts more documents than the same rank's summary of the stat: a stats
     * rank writes every group of a stat from the same documents, so one of the two is another run's. A group left out
     * of {@code groups} since an earlier run into the same output, with as many tasks, kept that run's files, which
     * {@link #checkNoRankFileMissing} cannot tell from this run's, and the merge summed them ("400 of the 160
     * documents" in the report). A summary stored as a bare number (datatrove's all-zero metric) has no count, and
     * is not compared.
     */
    private void checkNotMoreThanSummary(String folder, Path file, MetricStatsDict rank) throws IOException {
        String[] parts = folder.split("/");
        if (parts.length != 2 || parts[0].equals("summary")) {
            return;
        }
        Path summaryFile = input.resolve("summary").resolve(parts[1]).resolve(file.getFileName());
        Long known = summaryCounts.get(summaryFile); // a stat's histogram, fqdn and suffix folders ask for the same file
        long expected = known != null ? known : summaryCount(summaryFile, file);
        summaryCounts.put(summaryFile, expected);
        if (expected < 0) {
            return;
        }
        long counted = 0;
        for (MetricStats s : rank.entries().values()) {
            counted += s.n();
        }
        if (counted > expected) {
            throw new IOException(file + " counts " + counted + " documents, more than the " + expected + " of " + summaryFile
                    + ": a stats rank writes every group of a stat from the same documents, so one of the two is an earlier"
                    + " run's: the older. If the stats steps no longer write one of the two groups there (a group left out of"
                    + " groups since), delete its folder (" + input.resolve(parts[0]) + " or " + input.resolve("summary")
                    + "); else run the stats stage again; then merge again");
        }
    }

    /** Per summary file read by {@link #checkNotMoreThanSummary}, its documents, or -1 for none to compare with. */
    private final Map<Path, Long> summaryCounts = new java.util.HashMap<>();

    /** The documents a rank's summary file counts; -1 when it is absent or a bare number (no count). */
    private long summaryCount(Path summaryFile, Path askedBy) throws IOException {
        JsonNode summary;
        try {
            summary = readJson(summaryFile).get("summary");
        } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
            return -1; // none, or merged and removed (remove_input) just now by the merge rank whose folder it is
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "; " + remakeAdvice(StatsStep.rankOf(askedBy.getFileName().toString())), e);
        }
        return summary != null && summary.isObject() ? MetricStats.fromJson(summary).n() : -1;
    }

    /**
     * Merges one folder into pending files (added to {@code pending}), noting its inputs in {@code consumed};
     * false when it holds no per-rank files (e.g. already merged with remove_input).
     */
    private boolean mergeFolder(String folder, List<Path> pending, List<Path> consumed, List<Path> obsolete) throws IOException {
        Path dir = input.resolve(folder);
        Path outDir = output.resolve(folder);
        for (String merged : List.of(MERGED_NAME, MERGED_RANKS, MERGED_QUANTILES)) {
            Files.deleteIfExists(outDir.resolve(merged + PENDING)); // a killed merge's, written again below if needed
        }
        List<Path> rankFiles = rankFiles(dir);
        if (rankFiles.isEmpty()) {
            return false;
        }
        checkNoPartOfRemoved(dir, rankFiles, outDir);
        MetricStatsDict stat = new MetricStatsDict();
        for (Path file : rankFiles) {
            MetricStatsDict rank = readRankFile(file, MergeStats::readDict);
            checkNotMoreThanSummary(folder, file, rank);
            stat.merge(rank);
        }
        String group = Path.of(folder).getParent() == null ? "" : Path.of(folder).getParent().getFileName().toString();
        group = group.contains("__") ? group.substring(0, group.indexOf("__")) : group; // datatrove's "fqdn__<name>" folders
        if (topKGroups.contains(group)) {
            stat = stat.select(stat.topKeys(topK));
        }
        writePending(outDir.resolve(MERGED_NAME + PENDING), stat.toJson(), pending);
        if (removeInput) {
            String ranks = ranksOf(rankFiles).stream().map(String::valueOf).collect(Collectors.joining(", "));
            writePending(outDir.resolve(MERGED_RANKS + PENDING), "{\"ranks\": [" + ranks + "]}", pending);
        } else {
            obsolete.add(outDir.resolve(MERGED_RANKS)); // the files it names are there again, or it would have refused
        }

        List<Path> sketchFiles = ranksFiles(dir, StatsStep.RANK_SKETCH);
        if (!sketchFiles.isEmpty() && ranksOf(sketchFiles).equals(ranksOf(rankFiles))) {
            QuantileSketch sketch = new QuantileSketch();
            for (Path file : sketchFiles) {
                sketch.merge(readRankFile(file, MergeStats::readSketch));
            }
            MetricStats summary = stat.getOrNull("summary");
            writePending(outDir.resolve(MERGED_QUANTILES + PENDING), quantilesJson(sketch, summary != null && summary.integral()), pending);
        } else {
            // The sketch of some ranks only would give their percentiles under the count of all (the report showed
            // 414 documents of 726): none is better, and the report reads the histogram instead. datatrove's files
            // have none at all, which needs no word.
            if (!sketchFiles.isEmpty()) {
                TreeSet<Integer> unpaired = ranksOf(rankFiles);
                unpaired.removeAll(ranksOf(sketchFiles));
                foldersWithoutSketch.add(dir + " (" + (unpaired.isEmpty() ? "sketches without their stats file"
                        : "no sketch for " + names(unpaired.stream().map(r -> String.format("%05d", r)).toList())) + ")");
            }
            obsolete.add(outDir.resolve(MERGED_QUANTILES));
        }
        consumed.addAll(rankFiles);
        consumed.addAll(sketchFiles);
        return true;
    }

    /**
     * Refuses to merge per-rank files that are a part of those a metric.json in {@code outDir} was merged from with
     * remove_input: they were written since by some ranks of the stats stage run again, and merging them alone
     * would replace every rank's sums with theirs. All of them there again (the whole stage run again) is a merge.
     */
    private void checkNoPartOfRemoved(Path dir, List<Path> rankFiles, Path outDir) throws IOException {
        Path record = outDir.resolve(MERGED_RANKS);
        if (!Files.exists(record) || !Files.exists(outDir.resolve(MERGED_NAME))) {
            return;
        }
        JsonNode ranks = readJson(record).get("ranks");
        if (ranks == null || !ranks.isArray()) {
            throw new IOException(record + ": malformed list of merged ranks (no \"ranks\" array); delete it to merge the"
                    + " files in " + dir + " as they are");
        }
        TreeSet<Integer> merged = new TreeSet<>();
        ranks.forEach(r -> merged.add(r.asInt()));
        TreeSet<Integer> gone = new TreeSet<>(merged);
        gone.removeAll(ranksOf(rankFiles));
        if (gone.isEmpty()) {
            return;
        }
        Path metric = outDir.resolve(MERGED_NAME);
        List<String> here = rankFiles.stream().map(f -> f.getFileName().toString()).toList();
        throw new IOException(dir + ": " + names(here) + " written after " + metric + " was merged from " + merged.size()
                + " ranks' files with remove_input, and the files of " + gone.size() + " of those ranks ("
                + names(gone.stream().map(r -> String.format("%05d.json", r)).toList()) + ") are gone: merging what is"
                + " there would replace the merged stats with a part of them. Run every rank of the stats stage again"
                + " (delete its completions). If every rank has run again and some wrote no file this time (fewer tasks,"
                + " or no documents), delete the lists of merged ranks (find " + output + " -name " + MERGED_RANKS
                + " -delete) and merge again");
    }

    private static TreeSet<Integer> ranksOf(List<Path> files) {
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Path f : files) {
            ranks.add(StatsStep.rankOf(f.getFileName().toString()));
        }
        return ranks;
    }

    /** Up to five names, then how many more. */
    private static String names(List<String> names) {
        return names.size() <= 5 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more";
    }

    private static void writePending(Path file, String json, List<Path> pending) throws IOException {
        pending.add(file);
        AtomicFile.write(file, json.getBytes(StandardCharsets.UTF_8));
    }

    private static final String PENDING = ".pending";

    private interface FileReader<T> {
        T read(Path file) throws IOException;
    }

    /**
     * A per-rank file read by {@code reader}; a damaged one is told with how to make it again (its rank, run again).
     * With remove_input, the merge ranks that did not fail have removed the files they merged, this rank's among them:
     * run again alone, it wrote them anew beside their merged files, which no later merge would take (the advice left
     * a tree it refused to merge). The whole stats stage and the merge then run again.
     */
    private <T> T readRankFile(Path file, FileReader<T> reader) throws IOException {
        try {
            return reader.read(file);
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "; " + remakeAdvice(StatsStep.rankOf(file.getFileName().toString())), e);
        }
    }

    /** How to make a rank's per-rank files again: its rank of the stats stage, or with remove_input both stages, run again. */
    private String remakeAdvice(int rank) {
        return removeInput
                ? "it is made again by the stats stage that wrote it: as remove_input has let the other ranks of this merge"
                        + " remove the files they merged, run both stages again: delete the completions folders of the stats"
                        + " stage and of this merge stage in the logging dir, and run the job again"
                : String.format("rank %1$d of the stats stage that wrote it makes it again: delete completions/%1$05d in"
                        + " that stage's folder of the logging dir and run the job again", rank);
    }

    /**
     * The merged sketch, preceded by its p50, p90 and p99 for readers that only want those; {@code integers}: the
     * metric's values are whole numbers (see {@link QuantileSketch#quantile(double, boolean)}).
     */
    static String quantilesJson(QuantileSketch sketch, boolean integers) {
        String body = sketch.toJson();
        StringBuilder sb = new StringBuilder("{\"p50\": ");
        sb.append(PyJson.floatRepr(sketch.quantile(0.5, integers)));
        sb.append(", \"p90\": ").append(PyJson.floatRepr(sketch.quantile(0.9, integers)));
        sb.append(", \"p99\": ").append(PyJson.floatRepr(sketch.quantile(0.99, integers)));
        sb.append(", ").append(body, 1, body.length());
        return sb.toString();
    }

    /** The files of {@code dir} named as ranks' files by {@code name} ({@link StatsStep#RANK_FILE} or its sketch's). */
    private static List<Path> ranksFiles(Path dir, Pattern name) throws IOException {
        return list(dir, name).stream().filter(p -> StatsStep.rankOf(p.getFileName().toString()) >= 0).toList();
    }

    private static List<Path> list(Path dir, Pattern name) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> name.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
    }

    /** Reads one per-rank (or merged) stats file; any problem is reported with the file's path. */
    public static MetricStatsDict readDict(Path file) throws IOException {
        return dictOf(file, readJson(file));
    }

    /** The stats file {@code file} as read into {@code json}. */
    static MetricStatsDict dictOf(Path file, JsonNode json) throws IOException {
        try {
            return MetricStatsDict.fromJson(json);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": malformed stats file: " + e.getMessage(), e);
        }
    }

    static QuantileSketch readSketch(Path file) throws IOException {
        try {
            return QuantileSketch.fromJson(readJson(file));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": malformed quantile sketch: " + e.getMessage(), e);
        }
    }

    static JsonNode readJson(Path file) throws IOException {
        try {
            JsonNode node = JSON.readTree(file.toFile());
            if (node == null || node.isMissingNode()) {
                throw new IOException(file + ": malformed stats file: empty");
            }
            return node;
        } catch (JacksonException e) {
            throw malformed(file, e);
        }
    }

    private static IOException malformed(Path file, JacksonException e) {
        // Jackson names its source inside the message ("[Source: REDACTED (...) disabled); line: 1, ...]"): noise here
        String message = e.getOriginalMessage().startsWith("Trailing token")
                ? "more after the end of its JSON object (two files written into one?)" // not Jackson's option names
                : e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
        return new IOException(file + ": malformed stats file (truncated or not JSON): "
                + message + " at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr(), e);
    }

    private static final ObjectReader ENTRY_READER =
            JSON.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** One key of a stats file: its metric, and whether it was written as a bare number (which keeps no count). */
    interface EntryVisitor {
        void visit(String key, MetricStats stats, boolean bare);
    }

    /**
     * The keys of a stats file one at a time, without holding the file: a domain group merged without top_k can
     * hold millions (160 MB a file), and reading them whole took gigabytes to draw a table of 25.
     */
    static void forEachEntry(Path file, EntryVisitor visitor) throws IOException {
        try (JsonParser p = JSON.createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + ": malformed stats file: "
                        + (p.currentToken() == null ? "empty" : "expected an object of key to metric"));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                JsonNode value = ENTRY_READER.readTree(p); // the one value; the file goes on after it
                try {
                    visitor.visit(key, MetricStats.fromJson(value), value.isNumber());
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + ": malformed stats file: key '" + key + "': " + e.getMessage(), e);
                }
            }
            if (p.nextToken() != null) {
                throw new IOException(file + ": malformed stats file: more after its object");
            }
        } catch (JacksonException e) {
            throw malformed(file, e);
        }
    }

    @Override
    public String stageProblem(int tasks, boolean documents) {
        return null; // it merges files; documents, if any, pass through
    }
}
