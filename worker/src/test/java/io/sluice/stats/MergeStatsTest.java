package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.pipeline.MetricStats;
import io.sluice.pipeline.MetricStatsTest;
import io.sluice.pipeline.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeStatsTest {
    @TempDir
    Path tmp;

    /** All five blocks, all four groups, on C4 documents (with URLs): 1 rank vs 2, 7 and random splits. */
    @Test
    void mergedSplitsEqualOnePass() throws IOException {
        Path corpus = StatsRun.shared().resolve("data/corpus/web_c4_samples.jsonl.zst");
        Assumptions.assumeTrue(Files.exists(corpus), "shared data not present");
        List<Document> docs = new ArrayList<>();
        for (Document d : StatsRun.readCorpus(corpus)) {
            Map<String, Object> meta = new java.util.LinkedHashMap<>(d.metadata());
            meta.putIfAbsent("url", "https://books.example.com/" + docs.size()); // 10 of the 40 have no URL
            docs.add(new Document(d.id(), d.text(), meta));
        }
        Path single = runSplit(docs, new int[] {0, docs.size()}, "one");
        Random rnd = new Random(3);
        List<int[]> splits = new ArrayList<>(List.of(MetricStatsTest.even(docs.size(), 2),
                MetricStatsTest.even(docs.size(), 7)));
        for (int t = 0; t < 3; t++) {
            splits.add(MetricStatsTest.random(docs.size(), 2 + rnd.nextInt(6), rnd));
        }
        int compared = 0;
        for (int[] bounds : splits) {
            Path split = runSplit(docs, bounds, "split" + compared);
            try (Stream<Path> walk = Files.walk(single)) {
                for (Path f : walk.filter(p -> p.getFileName().toString().equals(MergeStats.MERGED_NAME)).toList()) {
                    Path rel = single.relativize(f);
                    MetricStatsDict a = MergeStats.readDict(f);
                    MetricStatsDict b = MergeStats.readDict(split.resolve(rel));
                    assertEquals(a.entries().keySet(), b.entries().keySet(), rel.toString());
                    for (String key : a.entries().keySet()) {
                        MetricStatsTest.assertClose(a.get(key), b.get(key), rel + " [" + key + "]");
                    }
                    compared++;
                }
            }
            try (Stream<Path> walk = Files.walk(single)) {
                for (Path f : walk.filter(p -> p.getFileName().toString().equals(MergeStats.MERGED_QUANTILES)).toList()) {
                    assertEquals(Files.readString(f), Files.readString(split.resolve(single.relativize(f))));
                }
            }
        }
        assertTrue(compared > 5 * 36 * 4, "compared " + compared);
    }

    private Path runSplit(List<Document> docs, int[] bounds, String name) throws IOException {
        Path out = tmp.resolve(name);
        int ranks = bounds.length - 1;
        for (int r = 0; r < ranks; r++) {
            StatsRun.runRank(StatsRun.BLOCKS, Map.of("output", out.toString()), docs.subList(bounds[r], bounds[r + 1]),
                    r, ranks, tmp);
        }
        StatsRun.merge(out, out, 3, tmp); // any number of merge ranks shares the folders out
        return out;
    }

    @Test
    void malformedOrTruncatedRankFileIsAnErrorNamingIt() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("summary/length");
        writeRanks(folder, "{\"summary\": {\"total\": 3, \"unit\": \"task\"}}", "{\"summary\": {\"total\": 3, \"n\": 2, \"mea");
        IOException e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertTrue(e.getMessage().contains("00001.json"), e.getMessage());
        assertFalse(Files.exists(folder.resolve("metric.json")));

        Files.writeString(folder.resolve("00001.json"), "{\"summary\": {\"n\": 2}}");
        e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertTrue(e.getMessage().contains("00001.json") && e.getMessage().contains("total"), e.getMessage());

        Files.writeString(folder.resolve("00001.json"), "[1, 2]");
        e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertTrue(e.getMessage().contains("00001.json"), e.getMessage());

        // two objects in one file: told in words, not with Jackson's class and option names
        Files.writeString(folder.resolve("00001.json"), "{\"summary\": 1}{\"summary\": 2}");
        e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertTrue(e.getMessage().startsWith(folder.resolve("00001.json") + ": malformed stats file (truncated or not JSON):"
                + " more after the end of its JSON object (two files written into one?) at line 1, column 15;"), e.getMessage());

        // impossible values; before, merged into a mean of 0 or a rounded count
        Map<String, String> impossible = Map.of(
                "{\"summary\": {\"total\": 5, \"n\": 0, \"mean\": 2}}", "'n' is 0 but 'total' is 5",
                "{\"summary\": {\"total\": 5, \"n\": -3, \"mean\": 2}}", "'n' must be a count (an integer >= 0), got -3",
                "{\"summary\": {\"total\": 5, \"n\": 2.5}}", "'n' must be a count (an integer >= 0), got 2.5",
                "{\"summary\": {\"total\": 5, \"n\": NaN}}", "'n' must be a count (an integer >= 0), got NaN");
        for (Map.Entry<String, String> bad : impossible.entrySet()) {
            Files.writeString(folder.resolve("00001.json"), bad.getKey());
            e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
            assertEquals(folder.resolve("00001.json") + ": malformed stats file: key 'summary': " + bad.getValue() + "; rank 1"
                    + " of the stats stage that wrote it makes it again: delete completions/00001 in that stage's folder of"
                    + " the logging dir and run the job again", e.getMessage());
        }
        assertFalse(Files.exists(folder.resolve("metric.json")));

        // a bad file in a later folder: no folder of the rank gets a merged file, so none is half-done
        Files.writeString(folder.resolve("00001.json"), "{\"summary\": {\"total\": 4, \"unit\": \"task\"}}");
        Path later = in.resolve("summary/n_words");
        Files.createDirectories(later);
        Files.writeString(later.resolve("00000.json"), "{\"summary\": ");
        e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertTrue(e.getMessage().contains("n_words/00000.json"), e.getMessage());
        assertFalse(Files.exists(folder.resolve("metric.json")));

        // with remove_input the other merge ranks have removed the files they merged, this rank's among them: running
        // its stats rank alone again wrote them anew beside merged files, and the next merge refused that tree
        Step removing = StatsRun.create("merge_stats", Map.of("input", in.toString(), "remove_input", true));
        removing.open(StatsRun.context(0, 1, tmp));
        e = assertThrows(IOException.class, () -> removing.finish(d -> { }));
        assertTrue(e.getMessage().contains("n_words/00000.json") && e.getMessage().endsWith("as remove_input has let the other"
                + " ranks of this merge remove the files they merged, run both stages again: delete the completions folders of"
                + " the stats stage and of this merge stage in the logging dir, and run the job again"), e.getMessage());
    }

    /**
     * Rank 100000 and on write six-digit names: they are merged (the five-digit pattern left them out, exit 0). Other
     * numbered names are not ranks'.
     */
    @Test
    void ranksOfSixDigitsAreMerged() throws IOException {
        Path in = tmp.resolve("many");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        int[] ranks = {99_998, 99_999, 100_000, 1_000_001};
        for (int i = 0; i < ranks.length; i++) {
            Files.writeString(folder.resolve(String.format("%05d.json", ranks[i])), summaryFile(10 * (i + 1)));
        }
        // numbered files that are not a rank's name: not summed, and no error (a name past an int failed the merge
        // with "For input string")
        for (String stray : List.of("20240101120000.json", "123456789012.json", "0000000000001.json", "000001.json")) {
            Files.writeString(folder.resolve(stray), summaryFile(1000));
        }
        StatsRun.merge(in, in, 1, tmp);
        MetricStats merged = MergeStats.readDict(folder.resolve(MergeStats.MERGED_NAME)).get("summary");
        assertEquals(4, merged.n());
        assertEquals(100, merged.total());
    }

    /**
     * Values past about 1e154 overflow the variance, and Python's json writes the Infinity and NaN that follow, as
     * our steps do: such files merge as datatrove merges them. A job whose token_count metadata held 1e300 wrote
     * them and then refused them, on every run.
     */
    @Test
    void overflowingValuesMergeAsPythonMergesThem() throws IOException {
        Path in = tmp.resolve("huge");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        MetricStats a = new MetricStats();
        a.add(1e300);
        a.add(3e300);
        MetricStats b = new MetricStats();
        b.add(2e300);
        b.add(-1e300);
        for (MetricStats s : List.of(a, b)) {
            MetricStatsDict d = new MetricStatsDict();
            d.put("summary", s);
            Files.writeString(folder.resolve(String.format("%05d.json", s == a ? 0 : 1)), d.toJson(true));
        }
        assertTrue(Files.readString(folder.resolve("00000.json")).contains("\"variance\": NaN"),
                Files.readString(folder.resolve("00000.json")));
        StatsRun.merge(in, in, 1, tmp);
        MetricStats merged = MergeStats.readDict(folder.resolve(MergeStats.MERGED_NAME)).get("summary");
        assertEquals(4, merged.n());
        assertEquals(5e300, merged.total(), 1e286);
        assertEquals(-1e300, merged.min());
        assertEquals(3e300, merged.max());
        assertTrue(Double.isInfinite(merged.variance()) || Double.isNaN(merged.variance()), merged.toString());

        // a rank's file is added to the sum once, as datatrove adds it: a mean past 1e154 with an infinite variance
        // merges to inf, not to the NaN of folding the file into an empty stats first
        Path big = tmp.resolve("huge2");
        Path bigFolder = big.resolve("summary/x");
        writeRanks(bigFolder, "{\"summary\": {\"total\": 1.2e29, \"n\": 2, \"mean\": 6e28, \"variance\": 1e300,"
                + " \"std_dev\": 1e150, \"min\": 0, \"max\": 1.2e29}}", "{\"summary\": {\"total\": 1e308, \"n\": 2,"
                + " \"mean\": 5e307, \"variance\": Infinity, \"std_dev\": Infinity, \"min\": 0, \"max\": 1e308}}");
        StatsRun.merge(big, big, 1, tmp);
        String metric = Files.readString(bigFolder.resolve(MergeStats.MERGED_NAME));
        assertTrue(metric.contains("\"variance\": Infinity") && !metric.contains("NaN"), metric);
    }

    @Test
    void aMergeBeforeItsStatsIsAnErrorAndAfterStatsThatSawNoDocumentsMergesNothing() throws IOException {
        Path in = tmp.resolve("empty");
        IOException e = assertThrows(IOException.class, () -> StatsRun.merge(in, tmp.resolve("out"), 2, tmp));
        assertEquals("stats input folder does not exist: " + in, e.getMessage());
        Files.createDirectories(in.resolve("summary/length"));
        e = assertThrows(IOException.class, () -> StatsRun.merge(in, tmp.resolve("out"), 2, tmp));
        assertEquals("no per-rank stats files under " + in + ": the stats steps writing there have not run, or their"
                + " files were removed without a merge into " + tmp.resolve("out"), e.getMessage());

        // a stats step whose ranks saw no documents leaves its folder and no files: nothing to merge, as in datatrove
        Path none = tmp.resolve("none");
        Step stats = StatsRun.create("doc_stats", Map.of("output", none.toString()));
        stats.open(StatsRun.context(0, 1, tmp));
        stats.finish(d -> { });
        StatsRun.merge(none, none, 1, tmp);
        try (Stream<Path> files = Files.list(none)) {
            assertEquals(List.of(), files.toList());
        }

        // a folder of documents is not a stats output; before, its merge was a warning and marked complete
        Path data = tmp.resolve("data");
        Files.createDirectories(data);
        Files.writeString(data.resolve("a.jsonl"), "{\"text\": \"x\"}\n");
        e = assertThrows(IOException.class, () -> StatsRun.merge(data, data, 1, tmp));
        assertEquals(data + " holds 1 file(s) but no stats folders (<group>/<stat>/NNNNN.json): merge_stats' input is"
                + " the output folder of the stats steps", e.getMessage());
    }

    @Test
    void readsDatatroveFilesRemovesInputAndPassesDocumentsThrough() throws IOException {
        Path in = tmp.resolve("in");
        Path out = tmp.resolve("out");
        Path folder = in.resolve("fqdn/n_words");
        writeRanks(folder, "{\"a.com\": 0, \"b.com\": {\"total\": 10, \"n\": 2, \"mean\": 5.0, \"variance\": 2.0,"
                + " \"std_dev\": 1.4142135623730951, \"min\": 4, \"max\": 6, \"unit\": \"task\"}}", "{\"b.com\": {\"total\": 5,"
                + " \"mean\": 5.0, \"unit\": \"task\"}, \"c.com\": {\"total\": 7, \"n\": 1, \"mean\": 7.0, \"unit\": \"task\"}}");
        Step m = StatsRun.create("merge_stats", Map.of("input", in.toString(), "output", out.toString(),
                "remove_input", true, "top_k", 2));
        m.open(StatsRun.context(0, 1, tmp));
        List<String> passed = new ArrayList<>();
        m.process(new Document("x", "t", Map.of()), d -> passed.add(d.id()));
        m.finish(d -> { });
        assertEquals(List.of("x"), passed);
        // b.com: 2 + 1 samples, a.com and c.com one each; top_k = 2 keeps b.com, then a.com (ties keep file order)
        String merged = Files.readString(out.resolve("fqdn/n_words/metric.json"));
        assertTrue(merged.startsWith("{\"b.com\": {\"total\": 15, \"n\": 3, \"mean\": 5.0,"), merged);
        assertTrue(merged.contains("\"a.com\": 0") && !merged.contains("c.com"), merged);
        assertFalse(Files.exists(folder.resolve("00000.json")));
        assertFalse(Files.exists(folder.resolve("00001.json")));
    }

    @Test
    void topKGroupsChoosesTheGroupsTheMergeCuts() throws IOException {
        Path in = tmp.resolve("in");
        for (String group : List.of("fqdn", "suffix")) {
            Path folder = in.resolve(group + "/length");
            Files.createDirectories(folder);
            Files.writeString(folder.resolve("00000.json"), "{\"a\": {\"total\": 4, \"n\": 2, \"mean\": 2.0, \"unit\": \"task\"}, "
                    + "\"b\": {\"total\": 5, \"n\": 1, \"mean\": 5.0, \"unit\": \"task\"}}");
        }
        Step m = StatsRun.create("merge_stats", Map.of("input", in.toString(), "top_k", 1, "top_k_groups", List.of("suffix")));
        m.open(StatsRun.context(0, 1, tmp));
        m.finish(d -> { });
        String fqdn = Files.readString(in.resolve("fqdn/length/metric.json"));
        assertTrue(fqdn.contains("\"a\"") && fqdn.contains("\"b\""), fqdn);
        String suffix = Files.readString(in.resolve("suffix/length/metric.json"));
        assertTrue(suffix.contains("\"a\"") && !suffix.contains("\"b\""), suffix);
    }

    @Test
    void aRankKilledWhileRemovingItsInputsFinishesTheRemovalWhenRunAgain() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        for (int r = 0; r < 3; r++) {
            Files.writeString(folder.resolve(String.format("%05d.json", r)), "{\"summary\": {\"total\": " + (r + 1)
                    + ", \"n\": 1, \"mean\": " + (r + 1) + ".0, \"unit\": \"doc\"}}");
        }
        Map<String, Object> args = Map.of("input", in.toString(), "remove_input", true);
        Step m = StatsRun.create("merge_stats", args);
        m.open(StatsRun.context(0, 1, tmp));
        m.finish(d -> { });
        String merged = Files.readString(folder.resolve("metric.json"));
        assertTrue(merged.startsWith("{\"summary\": {\"total\": 6, \"n\": 3,"), merged);

        // the state a kill leaves between deleting the first input and the last: the list of inputs to remove
        // is still there, and two inputs are back
        Files.writeString(in.resolve(".merge_stats-00000.removing"), "summary/length/00001.json\nsummary/length/00002.json\n");
        Files.writeString(folder.resolve("00001.json"), "{\"summary\": {\"total\": 2, \"n\": 1, \"mean\": 2.0, \"unit\": \"doc\"}}");
        Files.writeString(folder.resolve("00002.json"), "{\"summary\": {\"total\": 3, \"n\": 1, \"mean\": 3.0, \"unit\": \"doc\"}}");
        Step again = StatsRun.create("merge_stats", args);
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        again.open(StatsRun.context(0, 1, tmp, new java.io.PrintStream(log, true, StandardCharsets.UTF_8)));
        again.finish(d -> { });
        assertEquals(merged, Files.readString(folder.resolve("metric.json")), "not re-merged from the inputs left");
        String told = log.toString(StandardCharsets.UTF_8);
        assertTrue(told.contains("removed 2 merged per-rank files"), told);
        // the killed merge's metric.json is this merge's work: no "removed by an earlier merge ... run the stats again"
        assertFalse(told.contains("nothing to merge"), told);
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of("merged_ranks.json", "metric.json"), files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals(MergeStats.MERGED_QUANTILES)).sorted().toList(), "the inputs are removed");
        }
        assertFalse(Files.exists(in.resolve(".merge_stats-00000.removing")));
    }

    /**
     * A group's per-rank file that counts more documents than the rank's summary of the stat is another run's (a group
     * left out of groups since, with as many tasks): refused, naming both files. It was summed with the new run's,
     * and the report said "400 of the 160 documents".
     */
    @Test
    void aGroupFileCountingMoreDocumentsThanItsSummaryIsRefused() throws IOException {
        Path in = tmp.resolve("counts");
        Files.createDirectories(in.resolve("summary/length"));
        Files.createDirectories(in.resolve("fqdn/length"));
        Files.writeString(in.resolve("summary/length/00000.json"), "{\"summary\": {\"total\": 30, \"n\": 2, \"mean\": 15.0}}");
        Files.writeString(in.resolve("fqdn/length/00000.json"), "{\"a.org\": {\"total\": 30, \"n\": 2, \"mean\": 15.0}}");
        StatsRun.merge(in, in, 1, tmp); // as many: fine
        Files.writeString(in.resolve("fqdn/length/00000.json"), "{\"a.org\": {\"total\": 30, \"n\": 2, \"mean\": 15.0},"
                + " \"b.org\": {\"total\": 40, \"n\": 3, \"mean\": 13.3}}");
        IOException e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 1, tmp));
        assertEquals(in.resolve("fqdn/length/00000.json") + " counts 5 documents, more than the 2 of "
                + in.resolve("summary/length/00000.json") + ": a stats rank writes every group of a stat from the same"
                + " documents, so one of the two is an earlier run's: the older. If the stats steps no longer write one of"
                + " the two groups there (a group left out of groups since), delete its folder (" + in.resolve("fqdn")
                + " or " + in.resolve("summary") + "); else run the stats stage again; then merge again", e.getMessage());
        // datatrove's all-zero summary is a bare 0, without a count: not compared
        Files.writeString(in.resolve("summary/length/00000.json"), "{\"summary\": 0}");
        StatsRun.merge(in, in, 1, tmp);
    }

    /**
     * A stats rank writes every group of a stat at once: a folder without a rank's file that its stat's other folders
     * have (deleted by hand, lost) is refused, naming both. It was merged as fewer documents, without a word. A
     * __tokens folder, written only by ranks whose documents had token counts, is no such sibling.
     */
    @Test
    void aRankFileMissingBesideItsStatsOtherGroupsIsRefused() throws IOException {
        Path in = tmp.resolve("siblings");
        String one = "{\"summary\": {\"total\": 2, \"n\": 1, \"mean\": 2.0, \"unit\": \"doc\"}}";
        String bins = "{\"2\": {\"total\": 1, \"unit\": \"task\"}}";
        for (String folder : List.of("summary/n_words", "histogram/n_words", "histogram/n_words__chars", "fqdn/n_words")) {
            Files.createDirectories(in.resolve(folder));
            for (int r = 0; r < 2; r++) {
                Files.writeString(in.resolve(folder).resolve(String.format("%05d.json", r)), folder.startsWith("summary") ? one : bins);
            }
        }
        Files.createDirectories(in.resolve("histogram/n_words__tokens"));
        Files.writeString(in.resolve("histogram/n_words__tokens/00000.json"), bins);
        Path lost = in.resolve("histogram/n_words/00001.json");
        Files.delete(lost);
        IOException e = assertThrows(IOException.class, () -> StatsRun.merge(in, in, 2, tmp));
        assertTrue(e.getMessage().startsWith(in.resolve("histogram/n_words") + ": no 00001.json, where "
                + in.resolve("fqdn/n_words/00001.json") + " of the same stat is: a stats rank writes every group of a stat at"
                + " once, and merging without it would count fewer documents. If the stats stage is still running (another"
                + " job, or a merge submitted without waiting for it), merge once it has finished; else rank 1 of the stats"
                + " stage that wrote it makes it again"), e.getMessage());
        assertFalse(Files.exists(in.resolve("histogram/n_words/metric.json")));

        Files.writeString(lost, bins);
        StatsRun.merge(in, in, 2, tmp);
        assertTrue(Files.readString(in.resolve("histogram/n_words/metric.json")).contains("\"total\": 2"));
        assertTrue(Files.exists(in.resolve("histogram/n_words__tokens/metric.json")));
    }

    /**
     * Merge ranks killed while removing their inputs, and the stage then run with fewer tasks: every list is finished,
     * whichever rank wrote it, and every folder merged. Before, a rank finished its own list and stopped, so its new
     * share was left unmerged, and the list of a rank the job no longer had was never finished: exit 0, a third of the
     * folders without metric.json.
     */
    @Test
    void removalListsOfAKilledMergeAreFinishedWhenRunWithOtherTasks() throws IOException {
        Path in = tmp.resolve("in");
        List<String> stats = List.of("a", "b", "c", "d", "e", "f");
        for (String stat : stats) {
            Path folder = in.resolve("summary").resolve(stat);
            Files.createDirectories(folder);
            for (int r = 0; r < 2; r++) {
                Files.writeString(folder.resolve(String.format("%05d.json", r)), "{\"summary\": {\"total\": " + (r + 1)
                        + ", \"n\": 1, \"mean\": " + (r + 1) + ".0, \"unit\": \"doc\"}}");
            }
        }
        Map<String, Object> args = Map.of("input", in.toString(), "remove_input", true);
        // ranks 1 and 2 of three merged (b, e and c, f) and were killed after removing one input of each list
        for (int rank : new int[] {1, 2}) {
            StringBuilder list = new StringBuilder("folders_merged\t2\n");
            for (String stat : List.of(stats.get(rank), stats.get(rank + 3))) {
                Path folder = in.resolve("summary").resolve(stat);
                Files.writeString(folder.resolve("metric.json"), "{\"summary\": {\"total\": 3, \"n\": 2, \"mean\": 1.5, \"unit\": \"doc\"}}");
                Files.writeString(folder.resolve("merged_ranks.json"), "{\"ranks\": [0, 1]}");
                for (int r = 0; r < 2; r++) {
                    Path f = folder.resolve(String.format("%05d.json", r));
                    list.append("summary/").append(stat).append(String.format("/%05d.json\t", r)).append(MergeStats.identity(f)).append('\n');
                }
                Files.delete(folder.resolve("00000.json"));
            }
            Files.writeString(in.resolve(String.format(".merge_stats-%05d.removing", rank)), list);
        }
        Files.writeString(in.resolve("summary/e/metric.json.pending"), "{\"summary\": 1}"); // rank 1 was killed merging
        java.util.List<io.sluice.pipeline.StepContext> contexts = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            io.sluice.pipeline.StepContext ctx = StatsRun.context(rank, 2, tmp);
            contexts.add(ctx);
            Step m = StatsRun.create("merge_stats", args);
            m.open(ctx);
            m.finish(d -> { });
        }
        for (String stat : stats) {
            Path folder = in.resolve("summary").resolve(stat);
            assertTrue(Files.readString(folder.resolve("metric.json")).startsWith("{\"summary\": {\"total\": 3, \"n\": 2,"), stat);
            try (Stream<Path> files = Files.list(folder)) {
                assertEquals(List.of("merged_ranks.json", "metric.json"), files.map(p -> p.getFileName().toString()).sorted().toList(), stat);
            }
        }
        try (Stream<Path> files = Files.list(in)) {
            assertEquals(List.of("summary"), files.map(p -> p.getFileName().toString()).toList(), "no removal list left");
        }
        // each list counted once, by the rank that finished it (rank 0, first, both); a and d merged now. Before, rank 1
        // found its own list finished and counted nothing: 4 of the 6 folders
        assertEquals(2 + 2 + 1, contexts.get(0).stats().get("folders_merged"));
        assertEquals(1, contexts.get(1).stats().get("folders_merged"));
    }

    /**
     * The list a kill leaves names the files it merged; a stats stage run again since has written new ones under
     * the same names. Before, the rerun deleted them unmerged and kept the killed run's metric.json, exit 0.
     */
    @Test
    void aRemovalListOfAnEarlierRunIsDroppedAndTheNewStatsMerged() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        Path rank0 = folder.resolve("00000.json");
        Path rank1 = folder.resolve("00001.json");
        Files.writeString(rank0, "{\"summary\": {\"total\": 1, \"n\": 1, \"mean\": 1.0, \"unit\": \"doc\"}}");
        Files.writeString(rank1, "{\"summary\": {\"total\": 2, \"n\": 1, \"mean\": 2.0, \"unit\": \"doc\"}}");
        Map<String, Object> args = Map.of("input", in.toString(), "remove_input", true);
        Path removing = in.resolve(".merge_stats-00000.removing");

        // killed after deleting rank 0's file: the list names both as the merge read them
        String list = "folders_merged\t1\nsummary/length/00000.json\t" + MergeStats.identity(rank0)
                + "\nsummary/length/00001.json\t" + MergeStats.identity(rank1) + "\n";
        Files.writeString(folder.resolve("metric.json"), "{\"summary\": {\"total\": 3, \"n\": 2, \"mean\": 1.5, \"unit\": \"doc\"}}");
        Files.writeString(removing, list);
        Files.delete(rank0);
        io.sluice.pipeline.StepContext ctx = StatsRun.context(0, 1, tmp);
        Step again = StatsRun.create("merge_stats", args);
        again.open(ctx);
        again.finish(d -> { });
        assertFalse(Files.exists(rank1) || Files.exists(removing), "the removal is finished");
        assertTrue(Files.readString(folder.resolve("metric.json")).contains("\"total\": 3"));
        assertEquals(1, ctx.stats().get("folders_merged"), "the stats of the run that merged");

        // the same state, but a changed stats stage has written rank 0 and 1 again since, with other sums
        Files.writeString(removing, list);
        Files.writeString(rank0, "{\"summary\": {\"total\": 10, \"n\": 1, \"mean\": 10.0, \"unit\": \"doc\"}}");
        Files.writeString(rank1, "{\"summary\": {\"total\": 20, \"n\": 1, \"mean\": 20.0, \"unit\": \"doc\"}}");
        Step third = StatsRun.create("merge_stats", args);
        third.open(StatsRun.context(0, 1, tmp));
        third.finish(d -> { });
        String merged = Files.readString(folder.resolve("metric.json"));
        assertTrue(merged.startsWith("{\"summary\": {\"total\": 30, \"n\": 2,"), merged);
        assertFalse(Files.exists(rank0) || Files.exists(rank1) || Files.exists(removing));
    }

    @Test
    void ranksShareTheSameFoldersWhenAnEarlierRankHasRemovedItsInputs() throws IOException {
        Path in = tmp.resolve("in");
        Path out = tmp.resolve("out");
        for (String stat : List.of("a", "b")) {
            Files.createDirectories(in.resolve("summary").resolve(stat));
            Files.writeString(in.resolve("summary").resolve(stat).resolve("00000.json"),
                    "{\"summary\": {\"total\": 1, \"n\": 1, \"mean\": 1.0, \"unit\": \"doc\"}}");
        }
        Map<String, Object> args = Map.of("input", in.toString(), "output", out.toString(), "remove_input", true);
        for (int rank = 0; rank < 2; rank++) {
            Step m = StatsRun.create("merge_stats", args);
            m.open(StatsRun.context(rank, 2, tmp));
            m.finish(d -> { });
        }
        // rank 0 emptied summary/a; rank 1 listed only summary/b, took index 1 of a list of one, and merged nothing
        assertTrue(Files.exists(out.resolve("summary/a/metric.json")));
        assertTrue(Files.exists(out.resolve("summary/b/metric.json")));
    }

    /** Writes {@code files} into {@code folder} as the per-rank files of ranks 0, 1, ... */
    private static void writeRanks(Path folder, String... files) throws IOException {
        Files.createDirectories(folder);
        for (int r = 0; r < files.length; r++) {
            Files.writeString(folder.resolve(String.format("%05d.json", r)), files[r]);
        }
    }

    private static String summaryFile(int total) {
        return "{\"summary\": {\"total\": " + total + ", \"n\": 1, \"mean\": " + total + ".0, \"unit\": \"doc\"}}";
    }

    private void merge(Map<String, Object> args) throws IOException {
        Step m = StatsRun.create("merge_stats", args);
        m.open(StatsRun.context(0, 1, tmp));
        m.finish(d -> { });
    }

    /**
     * A merge with remove_input, then one rank of the stats stage run again (its completion deleted, or a requeue):
     * its file alone beside metric.json. Merging it overwrote the sums of three ranks with rank 1's, exit 0.
     */
    @Test
    void aRankRunAgainAfterAMergeThatRemovedItsInputsIsRefusedNotMergedAlone() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        for (int r = 0; r < 3; r++) {
            Files.writeString(folder.resolve(String.format("%05d.json", r)), summaryFile(r + 1));
        }
        Map<String, Object> args = Map.of("input", in.toString(), "remove_input", true);
        merge(args);
        String merged = Files.readString(folder.resolve("metric.json"));
        assertTrue(merged.startsWith("{\"summary\": {\"total\": 6, \"n\": 3,"), merged);

        Files.writeString(folder.resolve("00001.json"), summaryFile(2));
        IOException e = assertThrows(IOException.class, () -> merge(args));
        assertEquals(folder + ": 00001.json written after " + folder.resolve("metric.json") + " was merged from 3 ranks'"
                + " files with remove_input, and the files of 2 of those ranks (00000.json, 00002.json) are gone: merging"
                + " what is there would replace the merged stats with a part of them. Run every rank of the stats stage"
                + " again (delete its completions). If every rank has run again and some wrote no file this time (fewer"
                + " tasks, or no documents), delete the lists of merged ranks (find " + in + " -name merged_ranks.json"
                + " -delete) and merge again", e.getMessage());
        assertEquals(merged, Files.readString(folder.resolve("metric.json")));
        assertTrue(Files.exists(folder.resolve("00001.json")), "nothing removed");

        // the whole stage run again: every rank's file is back, and they are merged
        for (int r = 0; r < 3; r++) {
            Files.writeString(folder.resolve(String.format("%05d.json", r)), summaryFile(10 * (r + 1)));
        }
        merge(args);
        assertTrue(Files.readString(folder.resolve("metric.json")).startsWith("{\"summary\": {\"total\": 60, \"n\": 3,"));
        // run again whole, where rank 2 now has no documents and writes no file: refused as above, and the way out
        // the message gives merges what is there
        writeRanks(folder, summaryFile(10), summaryFile(20));
        assertThrows(IOException.class, () -> merge(args));
        try (Stream<Path> records = Files.walk(in)) {
            for (Path r : records.filter(p -> p.getFileName().toString().equals(MergeStats.MERGED_RANKS)).toList()) {
                Files.delete(r);
            }
        }
        merge(args);
        assertTrue(Files.readString(folder.resolve("metric.json")).startsWith("{\"summary\": {\"total\": 30, \"n\": 2,"));
        Files.writeString(folder.resolve(MergeStats.MERGED_RANKS), "{\"ranks\": 3}");
        Files.writeString(folder.resolve("00000.json"), summaryFile(1));
        assertEquals(folder.resolve(MergeStats.MERGED_RANKS) + ": malformed list of merged ranks (no \"ranks\" array); delete"
                + " it to merge the files in " + folder + " as they are", assertThrows(IOException.class, () -> merge(args)).getMessage());
        Files.delete(folder.resolve(MergeStats.MERGED_RANKS));
        // and a merge that keeps its inputs needs no list of them
        writeRanks(folder, summaryFile(1), summaryFile(2), summaryFile(3));
        merge(Map.of("input", in.toString()));
        assertFalse(Files.exists(folder.resolve(MergeStats.MERGED_RANKS)));
        Files.delete(folder.resolve("00002.json"));
        merge(Map.of("input", in.toString()));
        assertTrue(Files.readString(folder.resolve("metric.json")).startsWith("{\"summary\": {\"total\": 3, \"n\": 2,"),
                "the files there, as datatrove");
    }

    /** Rank 2's sketch missing (say, its stats written by datatrove): the others' sketch counted 2 documents of 3. */
    @Test
    void ranksWithoutSketchLeaveNoQuantilesFileAndAreTold() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("summary/length");
        Files.createDirectories(folder);
        for (int r = 0; r < 3; r++) {
            Files.writeString(folder.resolve(String.format("%05d.json", r)), summaryFile(r + 1));
            QuantileSketch sketch = new QuantileSketch();
            sketch.add(r + 1);
            Files.writeString(folder.resolve(String.format("%05d.quantiles.json", r)), sketch.toJson());
        }
        merge(Map.of("input", in.toString()));
        assertEquals(3, MergeStats.readSketch(folder.resolve(MergeStats.MERGED_QUANTILES)).count());

        Files.delete(folder.resolve("00002.quantiles.json"));
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        Step m = StatsRun.create("merge_stats", Map.of("input", in.toString()));
        m.open(new io.sluice.pipeline.StepContext(0, 1, new io.sluice.pipeline.StepStats("test"),
                io.sluice.pipeline.TaskLog.toStream(new java.io.PrintStream(log, true)), tmp, new io.sluice.pipeline.ProgressCounter()));
        m.finish(d -> { });
        assertFalse(Files.exists(folder.resolve(MergeStats.MERGED_QUANTILES)), "the sketch of 2 ranks removed, not kept");
        assertTrue(Files.readString(folder.resolve("metric.json")).contains("\"n\": 3"));
        assertTrue(log.toString().contains("1 stat folder(s) hold per-rank files and quantile sketches (NNNNN.quantiles.json;"
                + " datatrove writes none) that do not pair up, and got no quantiles.json: the report reads their percentiles"
                + " from the histogram group. The first: " + folder + " (no sketch for 00002)"), log.toString());
    }

    @Test
    void aStatFolderWithAFolderInsideIsAnErrorAndHiddenFoldersAreNoStats() throws IOException {
        Path in = tmp.resolve("in");
        Path nWords = in.resolve("summary/n_words");
        Files.createDirectories(nWords.resolve("backup"));
        Files.writeString(nWords.resolve("00000.json"), summaryFile(1));
        Files.writeString(nWords.resolve("backup/00000.json"), summaryFile(1));
        IOException e = assertThrows(IOException.class, () -> merge(Map.of("input", in.toString())));
        assertEquals(nWords + " holds per-rank stats files and a folder, backup: a stat's folder (<group>/<stat>/NNNNN.json)"
                + " has no sub-folders, and these files would not be merged. Move the folder out of it", e.getMessage());

        // the report only reads: it leaves those files out, as datatrove's merge would, rather than failing
        assertEquals(List.of(Path.of("summary/n_words/backup")), StatsReport.unmerged(in));
        Files.move(nWords.resolve("backup"), in.resolve(".backup"));
        merge(Map.of("input", in.toString()));
        assertTrue(Files.exists(nWords.resolve("metric.json")));
        assertFalse(Files.exists(in.resolve(".backup/metric.json")), "a hidden folder is not merged");
    }

    /**
     * A job's root folder as the input: its logging dir's per-rank pipeline stats (logs/<stage>/stats/NNNNN.json, a
     * list of steps) look like a stat's files. The merge failed on them with advice that did not help; Sluice's and
     * datatrove's logging dirs are now left out.
     */
    @Test
    void logFoldersInsideTheInputAreNoStats() throws IOException {
        Path in = tmp.resolve("job");
        writeRanks(in.resolve("stats/summary/length"), summaryFile(3), summaryFile(4));
        // Sluice's logging dir: <stage>/stats beside <stage>/completions; datatrove's: stats beside completions
        for (String stage : List.of("logs/clean", "dt_logs")) {
            writeRanks(in.resolve(stage + "/stats"), "[{\"name\": \"read_jsonl\"}]");
            Files.createDirectories(in.resolve(stage + "/completions"));
        }
        // stats written inside the logging dir are stats all the same
        writeRanks(in.resolve("logs/out/summary/n_lines"), summaryFile(5));
        merge(Map.of("input", in.toString()));
        assertTrue(Files.readString(in.resolve("stats/summary/length/metric.json")).contains("\"total\": 7"));
        assertTrue(Files.exists(in.resolve("logs/out/summary/n_lines/metric.json")));
        assertFalse(Files.exists(in.resolve("logs/clean/stats/metric.json")));
        assertFalse(Files.exists(in.resolve("dt_logs/stats/metric.json")));
    }

    /** datatrove cuts "fqdn__<anything>" folders as fqdn ones. */
    @Test
    void groupFoldersNamedWithADoubleUnderscoreAreCutAsTheirGroup() throws IOException {
        Path in = tmp.resolve("in");
        Path folder = in.resolve("fqdn__lang/length");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("00000.json"), "{\"a\": {\"total\": 4, \"n\": 2, \"mean\": 2.0, \"unit\": \"task\"}, "
                + "\"b\": {\"total\": 5, \"n\": 1, \"mean\": 5.0, \"unit\": \"task\"}}");
        merge(Map.of("input", in.toString(), "top_k", 1));
        String merged = Files.readString(folder.resolve("metric.json"));
        assertTrue(merged.contains("\"a\"") && !merged.contains("\"b\""), merged);
    }
}
