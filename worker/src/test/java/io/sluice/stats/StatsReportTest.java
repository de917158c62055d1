package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.pipeline.MetricStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsReportTest {
    @Test
    void numbersOfOneSizeLookAlike() {
        assertEquals("2,230,247", StatsReport.fmt(2230247));
        assertEquals("49,530", StatsReport.fmt(49530.4));
        assertEquals("5.5", StatsReport.fmt(5.5));
        assertEquals("0.1235", StatsReport.fmt(0.123456));
        assertEquals("1.000e-05", StatsReport.fmt(0.00001));
        assertEquals("nan", StatsReport.fmt(Double.NaN)); // a variance past a double's range, as Python prints it
        assertEquals("-inf", StatsReport.fmt(Double.NEGATIVE_INFINITY));
        // not 151 digits across the table
        assertEquals("1.000e+150", StatsReport.fmt(1e150));
        assertEquals("999,999,999,999,999", StatsReport.fmt(999_999_999_999_999.0));
        assertEquals("1.000e+15", StatsReport.fmt(1e15));
    }

    @Test
    void quantilesOfAnIntegerMetricAreWholeAndWithinTheRange(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("summary/n_paragraphs");
        Files.createDirectories(stat);
        MetricStatsDict d = new MetricStatsDict();
        MetricStats s = new MetricStats();
        QuantileSketch sketch = new QuantileSketch();
        for (int i = 0; i < 100; i++) {
            long v = i < 60 ? 6 : 1000; // the sketch's estimates of 6 and 1000 are near them, not on them
            s.add(v);
            sketch.add(v);
        }
        d.put("summary", s);
        Files.writeString(stat.resolve(MergeStats.MERGED_NAME), d.toJson());
        Files.writeString(stat.resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(sketch, true));
        String html = StatsReport.render(dir);
        // min, p50, p90, p99, max
        assertTrue(html.contains("<td>6</td><td>6</td><td>1,000</td><td>1,000</td><td>1,000</td></tr>"), html);
    }

    /**
     * The sketch's estimate of a count is not rounded to a whole number after the fact, which could leave its 1%: the
     * p90 of 100..199 (189) was estimated 190.59 and shown as 191, and a p99 of 58 as 59, which no document had. Where
     * the estimate's bucket holds one whole number only, that number is exact.
     */
    @Test
    void quantilesOfACountStayWithinTheSketchsError(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", java.util.stream.LongStream.range(100, 200).toArray());
        long[] paragraphs = new long[1000];
        for (int i = 0; i < paragraphs.length; i++) {
            paragraphs[i] = i < 985 ? i % 40 : i < 992 ? 57 : 70; // rank 989 (p99) is 57, estimated 57.4 on its own
        }
        writeSummary(dir, "n_paragraphs", paragraphs);
        String html = StatsReport.render(dir);
        // min, p50, p90, p99, max of length: exact p50 149, p90 189, p99 198; each within 1%
        String length = summaryRow(html, "length");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<td>([0-9.,]+)</td>").matcher(length);
        java.util.List<Double> cells = new java.util.ArrayList<>();
        while (m.find()) {
            cells.add(Double.parseDouble(m.group(1).replace(",", "")));
        }
        assertEquals(8, cells.size(), length); // docs, mean, std, min, p50, p90, p99, max
        double[] exact = {149, 189, 198};
        for (int i = 0; i < 3; i++) {
            double shown = cells.get(cells.size() - 4 + i);
            assertTrue(Math.abs(shown - exact[i]) <= 0.01 * exact[i], "p" + i + ": " + shown + " for " + exact[i] + " in " + length);
        }
        assertTrue(html.contains("<td>57</td><td>70</td></tr>"), "p99 of n_paragraphs exactly 57, then the max: " + html);
        // which quantile: the lower of two neighbours, whose p99 the nearest rank's differs from by 10% on real data
        assertTrue(html.contains("quantile sketch: the value at rank &lfloor;q&middot;(n&minus;1)&rfloor; of the n sorted values,"
                + " within 1% relative before it is rounded to 4 digits here"), html);
    }

    private static void writeSummary(Path dir, String stat, long[] values) throws IOException {
        Path folder = dir.resolve("summary").resolve(stat);
        Files.createDirectories(folder);
        MetricStats s = new MetricStats();
        QuantileSketch sketch = new QuantileSketch();
        for (long v : values) {
            s.add(v);
            sketch.add(v);
        }
        MetricStatsDict d = new MetricStatsDict();
        d.put("summary", s);
        Files.writeString(folder.resolve(MergeStats.MERGED_NAME), d.toJson());
        Files.writeString(folder.resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(sketch, true));
    }

    /**
     * Per-rank files written after their metric.json (a stats stage run again, its merge killed or not run yet) make
     * the merged numbers an earlier run's: the page says so. It showed two runs' numbers side by side without a word.
     */
    @Test
    void perRankFilesNewerThanTheirMergeAreSaidToBeStale(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", new long[] {5, 6, 7});
        writeSummary(dir, "n_words", new long[] {1, 2, 3});
        for (String stat : List.of("length", "n_words")) {
            Path rankFile = dir.resolve("summary").resolve(stat).resolve("00000.json");
            Files.writeString(rankFile, "{\"summary\": 1}");
            Files.setLastModifiedTime(rankFile, java.nio.file.attribute.FileTime.fromMillis(
                    Files.getLastModifiedTime(rankFile.resolveSibling(MergeStats.MERGED_NAME)).toMillis() - 60_000));
        }
        assertTrue(!StatsReport.render(dir).contains("Stale:"), "merged after its per-rank files");
        Path rewritten = dir.resolve("summary/n_words/00000.json");
        Files.setLastModifiedTime(rewritten, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(rewritten.resolveSibling(MergeStats.MERGED_NAME)).toMillis() + 1_000));
        assertEquals(List.of(Path.of("summary/n_words")), StatsReport.stale(dir));
        assertTrue(StatsReport.render(dir).contains("<b>Stale:</b> 1 stat folder(s) hold per-rank files written after their"
                + " metric.json, whose numbers are then an earlier run's (summary/n_words); run merge_stats again (in a job that skips"
                + " it as complete, delete that stage's completions first)."));
    }

    /**
     * Folders merged from another run's files (a group or a threshold left out of a later run into the same output,
     * an input changed) count other documents than the rest of their block: the page says so, naming them. It showed
     * short_word_ratio_3 of an earlier input beside short_word_ratio_4 of the new one, and a domain table "400 of the
     * 160 documents (250%)", without a word. Blocks that count other documents (one before a filter, one after) and
     * datatrove's bare zeros are no such sign.
     */
    @Test
    void statsCountingOtherDocumentsThanTheirBlockAreNamed(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", new long[] {5, 6, 7});
        writeSummary(dir, "n_words", new long[] {1, 2});
        writeSummary(dir, "short_word_ratio_4", new long[] {0, 1});
        writeSummary(dir, "stop_word_ratio", new long[] {0, 1});
        writeSummary(dir, "type_token_ratio", new long[] {1, 1});
        // 200 documents, past the Longs Java caches: compared by value (two equal counts were said to differ)
        writeSummary(dir, "n_lines", java.util.stream.LongStream.range(0, 200).toArray());
        writeSummary(dir, "avg_line_length", java.util.stream.LongStream.range(0, 200).toArray());
        assertTrue(!StatsReport.render(dir).contains("Counts disagree"), "word_stats after a filter: 2 of the 3 documents");
        // datatrove's merge of bare zeros: a summary without a sketch or histogram has no exact count to compare
        Files.createDirectories(dir.resolve("summary/paragraph_duplicates"));
        Files.writeString(dir.resolve("summary/paragraph_duplicates").resolve(MergeStats.MERGED_NAME),
                "{\"summary\": {\"total\": 1, \"n\": 9, \"mean\": 0.11}}");
        assertTrue(!StatsReport.render(dir).contains("Counts disagree"), "no exact count");
        writeSummary(dir, "short_word_ratio_3", new long[] {0, 1, 0, 1, 1});
        writeSummary(dir, "line_duplicates", new long[] {0, 0, 0, 0, 0});
        Files.createDirectories(dir.resolve("fqdn/length"));
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME),
                "{\"a.example.org\": {\"total\": 40, \"n\": 4, \"mean\": 10}}");
        Path page = dir.resolve("report.html");
        List<String> miscounted = StatsReport.write(dir, page).miscounted();
        String html = Files.readString(page);
        assertEquals(List.of("line_duplicates counts 5 documents, the other line stats 200",
                "short_word_ratio_3 counts 5 documents, the other word stats 2",
                "fqdn/length counts 4 documents under its keys, more than the 3 of its summary"), miscounted);
        assertTrue(html.contains("<b>Counts disagree:</b> line_duplicates counts 5 documents, the other line stats 200;"
                + " short_word_ratio_3 counts 5 documents, the other word stats 2;"
                + " fqdn/length counts 4 documents under its keys, more than the 3 of its summary. The stats of one block,"
                + " and a stat's groups, count the same documents"), html);
    }

    /** One file that cannot be read is named, on the page and to the caller; the other metrics are still shown. */
    @Test
    void anUnreadableFileLeavesTheRestOfThePage(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", new long[] {5, 6, 7});
        writeSummary(dir, "n_words", new long[] {1, 2, 3});
        Path bad = dir.resolve("summary/n_words").resolve(MergeStats.MERGED_NAME);
        Files.writeString(bad, "{\"summary\": {\"total\": 6, \"n\": 3");
        Files.createDirectories(dir.resolve("fqdn/length"));
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME), "");
        java.util.List<String> unreadable = new java.util.ArrayList<>();
        String html = StatsReport.render(dir, unreadable);
        assertEquals(2, unreadable.size(), unreadable.toString());
        assertTrue(unreadable.get(0).startsWith(bad + ": malformed stats file (truncated or not JSON)"), unreadable.toString());
        assertTrue(unreadable.get(1).startsWith(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME) + ": malformed stats file: empty"),
                unreadable.toString());
        assertTrue(html.contains("<b>Unreadable:</b> 2 file(s)"), html);
        assertTrue(html.contains("length</a></td><td>3</td><td>6</td>"), "the readable metric's row: " + html);
        assertTrue(html.contains("n_words</a></td><td colspan=\"8\" class=\"bad\">" + bad), html);
        assertTrue(html.contains("No file of the fqdn group could be read"), html);
        assertTrue(html.contains("3 documents, 18 characters"), html);
    }

    /**
     * A metric whose values sum to 0 is written by datatrove as a bare 0, with no extremes: its percentiles are the
     * histogram's, not clamped to 0 (they said 0 beside a histogram of -1 and 1).
     */
    @Test
    void aBareZeroSummaryDoesNotBoundThePercentiles(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("summary/delta"));
        Files.createDirectories(dir.resolve("histogram/delta"));
        Files.writeString(dir.resolve("summary/delta").resolve(MergeStats.MERGED_NAME), "{\"summary\": 0}");
        Files.writeString(dir.resolve("histogram/delta").resolve(MergeStats.MERGED_NAME),
                "{\"-1\": {\"total\": 50, \"unit\": \"task\"}, \"1\": {\"total\": 50, \"unit\": \"task\"}}");
        String html = StatsReport.render(dir);
        assertTrue(html.contains("<td>-1</td><td>1</td><td>1</td>"), html); // p50 (rank 49), p90, p99
    }

    /** Whole-number values get bins of whole numbers: 100..199 in 40 bins of 2.5 alternated 3 and 2 per bin. */
    @Test
    void histogramsOfWholeNumbersHaveWholeBins() {
        MetricStatsDict bins = new MetricStatsDict();
        for (int v = 100; v < 200; v++) {
            bins.get(Integer.toString(v)).add(1);
        }
        String svg = HistogramFigure.html(StatsReport.histogramPoints(bins), Double.NaN);
        assertTrue(svg.contains("<title>100 – 102: 3 docs</title>"), svg);
        assertTrue(svg.contains("<title>196 – 198: 3 docs</title>"), svg);
        assertTrue(!svg.contains(": 2 docs"), svg);
        // the last bin holds 199 alone (it said "199 – 201"), drawn a third as wide as the others
        assertTrue(svg.contains("width=\"9.80\" height=\"88.00\"><title>100 – 102: 3 docs</title>"), svg);
        assertTrue(svg.contains("width=\"2.60\" height=\"29.33\"><title>199: 1 doc</title>"), svg);
        MetricStatsDict few = new MetricStatsDict();
        few.get("3").add(1);
        few.get("5").add(1);
        assertTrue(HistogramFigure.html(StatsReport.histogramPoints(few), Double.NaN).contains("<title>3: 1 doc</title>"));
    }

    /**
     * Domain names are escaped, and what a browser would not show as written is shown as its code: a right-to-left
     * override made "x.\u202eevil.com" read "x.moc.live". A long name wraps rather than push the counts off the page.
     */
    @Test
    void domainNamesAreShownAsWritten(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("fqdn/length"));
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME),
                "{\"x.\\u202eevil.com\": {\"total\": 5, \"unit\": \"task\"}, \"<b>\\\"a\\\"</b>.com\": {\"total\": 3, \"unit\": \"task\"}}");
        String html = StatsReport.render(dir);
        assertTrue(html.contains("<td class=\"key\">x.\\u202eevil.com</td>"), html);
        assertTrue(html.contains("<td class=\"key\">&lt;b&gt;&quot;a&quot;&lt;/b&gt;.com</td>"), html);
        assertTrue(!html.contains("\u202e"), "no override character on the page");
        assertTrue(html.contains("td.key{max-width:40em;overflow-wrap:anywhere}"));
        // controls, separators, tag characters and lone surrogates too (they went into the page raw)
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME),
                "{\"a\\u0000b\\u001b\\u0085\\u2028\\udb40\\udc41\\ud800\\n\\t.com\": {\"total\": 5, \"unit\": \"task\"}}");
        html = StatsReport.render(dir);
        // a line break or tab in a key would read as a space
        assertTrue(html.contains("<td class=\"key\">a\\u0000b\\u001b\\u0085\\u2028\\U000e0041\\ud800\\u000a\\u0009.com</td>"), html);
        // variation selectors, the combining grapheme joiner, odd spaces: each was one more row reading "paypal.com"
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME),
                "{\"paypal\\ufe0f.com\": {\"total\": 5, \"unit\": \"task\"}, \"paypal\\u034f.com\": {\"total\": 4, \"unit\": \"task\"},"
                + " \"paypal\\udb40\\udd01.com\": {\"total\": 3, \"unit\": \"task\"}, \"paypal\\u2009.com\": {\"total\": 2, \"unit\": \"task\"},"
                + " \"caf\\u00e9.com\": {\"total\": 1, \"unit\": \"task\"}}");
        html = StatsReport.render(dir);
        for (String shown : List.of("paypal\\ufe0f.com", "paypal\\u034f.com", "paypal\\U000e0101.com", "paypal\\u2009.com", "caf\u00e9.com")) {
            assertTrue(html.contains("<td class=\"key\">" + shown + "</td>"), shown + " in " + html);
        }
    }

    /** Counts read as numbers do elsewhere on the page: "15,279 documents", not "15279 documents". */
    @Test
    void documentCountsHaveThousandsSeparators(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("summary/length");
        Files.createDirectories(stat);
        MetricStats s = new MetricStats();
        QuantileSketch sketch = new QuantileSketch();
        for (int i = 0; i < 15_279; i++) {
            s.add(100L + i % 7);
            sketch.add(100L + i % 7);
        }
        MetricStatsDict d = new MetricStatsDict();
        d.put("summary", s);
        Files.writeString(stat.resolve(MergeStats.MERGED_NAME), d.toJson());
        Files.writeString(stat.resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(sketch, true));
        String html = StatsReport.render(dir);
        assertTrue(html.contains("15,279 documents, 1,573,732 characters"), html);
        assertTrue(html.contains("<td>15,279</td>"), "the summary table's docs column: " + html);
    }

    /**
     * Stats datatrove wrote have no sketch: the percentiles come from the histogram group, marked so. Before,
     * their cells were blank under a note that said they came from the sketch.
     */
    @Test
    void withoutASketchThePercentilesComeFromTheHistogram(@TempDir Path dir) throws IOException {
        MetricStats s = new MetricStats();
        MetricStatsDict bins = new MetricStatsDict();
        for (int i = 1; i <= 200; i++) {
            long v = i <= 100 ? 3 : i <= 190 ? 7 : 40; // rank 99 (p50) is 3, rank 179 (p90) 7, rank 197 (p99) 40
            s.add(v);
            bins.get(Long.toString(v)).add(1);
        }
        MetricStatsDict d = new MetricStatsDict();
        d.put("summary", s);
        Files.createDirectories(dir.resolve("summary/n_lines"));
        Files.createDirectories(dir.resolve("histogram/n_lines"));
        Files.writeString(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_NAME), d.toJson());
        Files.writeString(dir.resolve("histogram/n_lines").resolve(MergeStats.MERGED_NAME), bins.toJson());
        String html = StatsReport.render(dir);
        // min, p50, p90, p99, max
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>200</td>"), html);
        assertTrue(html.contains("<td>3</td><td>3</td><td>7</td><td>40</td><td>40</td></tr>"), html);
        assertTrue(html.contains("&dagger; No sketch"), html);
        // a sketch of some of the documents only (merged while a rank's sketch was missing) is not read: before, the
        // table said 120 documents and their percentiles
        QuantileSketch part = new QuantileSketch();
        for (int i = 0; i < 120; i++) {
            part.add(1000);
        }
        Files.writeString(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(part, true));
        html = StatsReport.render(dir);
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>200</td>"), html);
        assertTrue(html.contains("<td>3</td><td>3</td><td>7</td><td>40</td><td>40</td></tr>"), html);
        Files.delete(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_QUANTILES));

        // datatrove writes an all-zero metric as a bare 0, without its count: the histogram has it (before: 1 document)
        Files.writeString(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_NAME), "{\"summary\": 0}");
        html = StatsReport.render(dir);
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>200</td><td>0</td>"), html);
        // with no histogram either, the count is unknown, and said to be so (before: 1 document)
        Files.createDirectories(dir.resolve("summary/length"));
        Files.writeString(dir.resolve("summary/length").resolve(MergeStats.MERGED_NAME), "{\"summary\": 0}");
        html = StatsReport.render(dir);
        assertTrue(html.contains("length</a></td><td title=\"stored as a bare number, datatrove's form of a metric that is 0 in"
                + " every document, which keeps no document count\">?</td><td>0</td>"), html);
        // no summary group: the histogram's documents and percentiles, no blank row under a dagger
        Files.delete(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_NAME));
        html = StatsReport.render(dir);
        // (min and max from the histogram's keys: before, blank)
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>200</td><td colspan=\"2\" class=\"note\">(no summary group)</td>"
                + "<td>3</td><td>3</td><td>7</td><td>40</td><td>40</td></tr>"), html);
        assertTrue(!html.contains("quantile sketch: the value at rank"), "no sketch, so no note of one: " + html);

        // a summary still in per-rank files is said to be so, not to be a group the stats lack
        Files.writeString(dir.resolve("summary/n_lines/00000.json"), d.toJson());
        assertTrue(StatsReport.render(dir).contains("(summary not merged)"));
    }

    /**
     * A domain's documents are the largest count among its stats: a stat that is 0 in all of them is a bare 0 in the
     * merged file, without its count. Before, the table read one stat and said 1 document for 20, ranked last.
     */
    @Test
    void aDomainsDocumentsComeFromTheStatThatKeepsTheirCount(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("fqdn/n_words"));
        Files.createDirectories(dir.resolve("fqdn/avg_words_per_line"));
        Files.writeString(dir.resolve("fqdn/n_words").resolve(MergeStats.MERGED_NAME), "{\"full.example.com\": {\"total\": 50,"
                + " \"n\": 5, \"mean\": 10.0, \"unit\": \"task\"}, \"dots.example.com\": 0, \"zero.example.com\": 0}");
        Files.writeString(dir.resolve("fqdn/avg_words_per_line").resolve(MergeStats.MERGED_NAME), "{\"full.example.com\":"
                + " {\"total\": 5.0, \"unit\": \"task\"}, \"dots.example.com\": {\"total\": 20.0, \"unit\": \"task\"}, \"zero.example.com\": 0}");
        String html = StatsReport.render(dir);
        String rows = html.substring(html.indexOf("<h2>Top domains</h2>"));
        assertTrue(rows.contains("<th>mean avg_words_per_line</th></tr>\n<tr><td class=\"key\">dots.example.com</td><td>20</td><td>1</td></tr>\n"
                + "<tr><td class=\"key\">full.example.com</td><td>5</td><td>1</td></tr>\n<tr><td class=\"key\">zero.example.com</td><td title="), rows);
        assertTrue(rows.contains(" which keeps no document count\">?</td><td>0</td></tr>"), rows);
        assertTrue(rows.contains("3 keys. Each rank keeps its top_k keys (100,000 unless the steps set top_k), and so does"
                + " merge_stats: if the group had more, rarer keys were dropped with their documents, and some counts are low."), rows);

        // every document without a URL: the report says so, not only "0 keys"
        Files.writeString(dir.resolve("fqdn/n_words").resolve(MergeStats.MERGED_NAME), "{}");
        Files.writeString(dir.resolve("fqdn/avg_words_per_line").resolve(MergeStats.MERGED_NAME), "{}");
        assertTrue(StatsReport.render(dir).contains("No keys: no document had a URL where the stats steps' url_key looked"
                + " (their task logs count such documents as no_url_fqdn)."));
    }

    /**
     * word_stats before a filter and doc_stats after it, into one folder (as docs/stats.md allows): the domains' shares
     * were of length's documents, after the filter, and reached 402%. A stat whose domain file is empty (another
     * url_key) gave the mean column when first by name, blank on every row.
     */
    @Test
    void domainSharesAreOfTheStatCountingMostAndTheMeanOfAStatWithKeys(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", new long[] {10, 20, 30});
        writeSummary(dir, "n_words", new long[] {1, 2, 3, 4, 5});
        writeGroup(dir, "fqdn/avg_paragraph_length", "{}");
        writeGroup(dir, "fqdn/n_words", "{\"a.com\": {\"total\": 9, \"n\": 3, \"mean\": 3.0}, \"b.com\": {\"total\": 6, \"n\": 2, \"mean\": 3.0}}");
        String html = StatsReport.render(dir);
        String rows = html.substring(html.indexOf("<h2>Top domains</h2>"));
        assertTrue(rows.contains("<th>mean n_words</th></tr>\n<tr><td class=\"key\">a.com</td><td>3</td><td>60%</td><td>3</td></tr>"), rows);
        assertTrue(rows.contains("5 of the 5 documents (100%) are under these 2 keys; the others had no URL, or were under keys top_k"
                + " dropped. The stats of this group counted more documents than length's 3 (a filter between the stats steps,"
                + " say): shares are of the 5 of the one counting most."), rows);
        // a stat with no exact count in the table (no sketch or histogram: datatrove's, or groups: [fqdn]) still counts
        writeGroup(dir, "summary/n_words", "{\"summary\": {\"total\": 15, \"n\": 5, \"mean\": 3.0}}");
        Files.deleteIfExists(dir.resolve("summary/n_words").resolve(MergeStats.MERGED_QUANTILES));
        rows = StatsReport.render(dir);
        assertTrue(rows.contains("<td class=\"key\">a.com</td><td>3</td><td>60%</td>"), rows);
        assertTrue(rows.contains("5 of the 5 documents (100%)"), rows);
        // with length's own keys, the mean is length's
        writeGroup(dir, "fqdn/length", "{\"a.com\": {\"total\": 30, \"n\": 2, \"mean\": 15.0}, \"b.com\": {\"total\": 10, \"n\": 1, \"mean\": 10.0}}");
        rows = StatsReport.render(dir);
        assertTrue(rows.contains("<th>mean length</th></tr>\n<tr><td class=\"key\">a.com</td><td>3</td><td>60%</td><td>15</td></tr>"), rows);
    }

    /** A hand-written summary: a variance a rounding below 0 showed a std of nan, and one of no documents min inf, max -inf. */
    @Test
    void aVarianceBelowZeroAndAStatOfNoDocumentsShowNoNonsense(@TempDir Path dir) throws IOException {
        writeGroup(dir, "summary/length", "{\"summary\": {\"total\": 6, \"n\": 3, \"mean\": 2.0, \"variance\": -2.2e-16,"
                + " \"min\": 2, \"max\": 2}}");
        writeGroup(dir, "summary/n_words", "{\"summary\": {\"total\": 0, \"n\": 0}}");
        String html = StatsReport.render(dir);
        String length = summaryRow(html, "length");
        assertTrue(length.contains("<td>2</td><td>0</td><td>2</td>"), length);
        String words = summaryRow(html, "n_words");
        assertTrue(!words.contains("inf") && !words.contains("nan<"), words);
    }

    /** The summary table's row of {@code stat}, from its name's link to the end of the row. */
    private static String summaryRow(String html, String stat) {
        String row = html.substring(html.indexOf(stat + "</a>"));
        return row.substring(0, row.indexOf("</tr>"));
    }

    /** A histogram rounded to one value beside a summary of several says so ("all 700 documents: 0" beside a max of 1). */
    @Test
    void aHistogramRoundedToOneValueSaysSo(@TempDir Path dir) throws IOException {
        writeGroup(dir, "summary/short_paragraph_ratio_100", "{\"summary\": {\"total\": 2.5, \"n\": 4, \"mean\": 0.625,"
                + " \"variance\": 0.2, \"min\": 0.0, \"max\": 1.0}}");
        writeGroup(dir, "histogram/short_paragraph_ratio_100", "{\"0.0\": {\"total\": 4, \"n\": 4, \"mean\": 1.0}}");
        String html = StatsReport.render(dir);
        assertTrue(html.contains("<p class=\"note\">all 4 documents: 0</p><p class=\"note\">as the histogram group rounded them"
                + " (histogram_round_digits); the summary's values run from 0 to 1</p>"), html);
        // one value in the summary too: nothing to add
        writeGroup(dir, "summary/short_paragraph_ratio_100", "{\"summary\": {\"total\": 0, \"n\": 4, \"mean\": 0.0,"
                + " \"variance\": 0.0, \"min\": 0.0, \"max\": 0.0}}");
        assertTrue(!StatsReport.render(dir).contains("as the histogram group rounded them"));
    }

    /** histogram_round_digits: -1 keys tens: bins of whole tens, not a comb of bins each claiming 0 - 4, 10 - 14 ... */
    @Test
    void aHistogramOfTensHasBinsOfTens() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        for (int i = 0; i < 80; i++) {
            values.put(10.0 * i, 1 + i % 3);
        }
        String svg = figure(values, Double.NaN);
        assertTrue(svg.contains("<title>0 – 10: "), svg);
        assertTrue(svg.contains("<title>780 – 790: "), svg);
        assertTrue(!svg.contains(" – 4: ") && !svg.contains(" – 14: "), svg);
    }

    private static void writeGroup(Path dir, String groupAndStat, String merged) throws IOException {
        Files.createDirectories(dir.resolve(groupAndStat));
        Files.writeString(dir.resolve(groupAndStat).resolve(MergeStats.MERGED_NAME), merged);
    }

    /** Every stat of the five blocks says what it is, in the table's tooltip and under its histogram. */
    @Test
    void everyStatOfTheBlocksIsDescribed(@TempDir Path dir) throws IOException {
        for (String block : java.util.List.of("doc_stats", "word_stats", "line_stats", "paragraph_stats", "sentence_stats")) {
            StatsStep step = (StatsStep) StatsRun.create(block, java.util.Map.of("output", dir.toString()));
            for (String stat : step.statNames()) {
                org.junit.jupiter.api.Assertions.assertFalse(MetricDescriptions.of(stat).isEmpty(), block + " " + stat);
            }
        }
        assertEquals("share of the lines of at least 10000 characters", MetricDescriptions.of("long_line_ratio_chars_10000"));
        assertEquals("share of the words of at most 3 characters", MetricDescriptions.of("short_word_ratio_3"));
        MetricStatsDict d = new MetricStatsDict();
        MetricStats s = new MetricStats();
        s.add(0.25);
        d.put("summary", s);
        Files.createDirectories(dir.resolve("summary/line_char_duplicates"));
        Files.writeString(dir.resolve("summary/line_char_duplicates").resolve(MergeStats.MERGED_NAME), d.toJson());
        String html = StatsReport.render(dir);
        assertTrue(html.contains("<a href=\"#line_char_duplicates\" title=\"share of the characters in lines that repeat an"
                + " earlier line\">"), html);
        assertTrue(html.contains("<p class=\"desc\">share of the characters in lines that repeat an earlier line</p>"), html);
    }

    /**
     * Keys of a hand-made or odd histogram: an infinite one made the log axis' tick loop endless, and two a few ulps
     * apart a step that adding left unchanged; either ran the report out of memory with no page. Python's "inf" and
     * "nan" were dropped without a word.
     */
    @Test
    void nonFiniteAndNearlyEqualKeysAreDrawnOrTold() {
        String infinite = figure(new java.util.TreeMap<>(java.util.Map.of(10.0, 5, 200.0, 3, Double.POSITIVE_INFINITY, 1)), Double.NaN);
        assertTrue(infinite.startsWith("<p class=\"note\">1 document has a value of inf or nan, not drawn</p><svg"), infinite);
        assertTrue(infinite.contains(": 5 docs</title>") && infinite.contains(": 3 docs</title>"), infinite);
        String close = figure(new java.util.TreeMap<>(java.util.Map.of(4.5, 300, 4.500000000000001, 200)), Double.NaN);
        assertTrue(close.contains("<title>4.5: 500 docs</title>"), close); // the two, as the 4 digits shown tell them
        MetricStatsDict python = new MetricStatsDict();
        for (String key : List.of("1.0", "2.0", "inf", "nan", "-inf")) {
            python.get(key).add(1);
        }
        List<double[]> points = StatsReport.histogramPoints(python);
        assertEquals(5, StatsReport.documents(points), "Python's spellings are counted");
        assertTrue(HistogramFigure.html(points, Double.NaN).startsWith("<p class=\"note\">3 documents have a value of inf or nan,"
                + " not drawn</p>"));
    }

    private static String figure(java.util.Map<Double, Integer> docsPerValue, double p99) {
        MetricStatsDict bins = new MetricStatsDict();
        docsPerValue.forEach((v, n) -> {
            for (int i = 0; i < n; i++) {
                bins.get(io.sluice.io.PyJson.floatRepr(v)).add(1);
            }
        });
        return HistogramFigure.html(StatsReport.histogramPoints(bins), p99);
    }

    private static int count(String s, String part) {
        return s.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    /**
     * The documents above p99 are a bar of their own, told apart and labelled: piled into the last bin they drew a
     * peak at the right end that the data does not have (avg_word_length: 166 documents of 10.05 to 136).
     */
    @Test
    void documentsAboveP99AreABarOfTheirOwn() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        for (int i = 0; i < 100; i++) {
            values.put(3.0 + i * 0.01, 10); // 3.00 .. 3.99
        }
        values.put(50.0, 5);
        values.put(136.0, 3);
        String svg = figure(values, 3.99);
        assertTrue(svg.contains("<rect class=\"over\""), svg);
        assertTrue(svg.contains("<title>above p99 (3.99), up to 136: 8 docs</title>"), svg);
        assertTrue(svg.contains("&gt;p99</text>"), svg);
        assertTrue(!svg.contains("log scale"), "a mean word length is drawn linearly: " + svg);
        // the bins hold 3.00 .. 3.99 only, whole multiples of the values' 0.01: 40 bins of 0.025 would alternate 2 and 3
        // of them
        assertEquals(34 + 1, count(svg, "<rect"), svg); // 33 bins of three values, one of the last, and the overflow bar
        assertTrue(svg.contains("<title>3 – 3.02: 30 docs</title>"), svg);
        assertTrue(svg.contains("<title>3.99: 10 docs</title>"), svg);
    }

    /** Values on the histogram group's 0.001 grid get bins of whole steps: no bin without a value in it (a comb). */
    @Test
    void ratiosRoundedToThreeDigitsHaveNoEmptyBins() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        for (int i = 0; i <= 50; i++) {
            values.put(i / 1000.0 + 0.1, 1); // 0.1 .. 0.15, 51 values
        }
        String svg = figure(values, Double.NaN);
        assertEquals(26, count(svg, "<rect"), svg); // 25 bins of two values and a last of one: each drawn
        assertTrue(svg.contains("<title>0.15: 1 doc</title>"), svg);
    }

    /**
     * Lengths and counts that reach 1,000 are drawn on a log axis over their whole range: on a linear one up to p99 the
     * first bar held every document under about 1,000 characters, where filters cut.
     */
    @Test
    void lengthsAreDrawnOnALogAxis() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        for (int v = 1; v <= 100_000; v = v * 3 / 2 + 1) {
            values.put((double) v, 7);
        }
        values.put(0.0, 2);
        String svg = figure(values, 20_000);
        assertTrue(svg.contains("log scale"), svg);
        assertTrue(!svg.contains("class=\"over\""), "no overflow bar on a log axis: " + svg);
        for (String tick : List.of(">0</text>", ">10</text>", ">100</text>", ">1,000</text>", ">10,000</text>")) {
            assertTrue(svg.contains(tick), tick + " in " + svg);
        }
        // every document is in a bar
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(": ([0-9,]+) docs?</title>").matcher(svg);
        long drawn = 0;
        while (m.find()) {
            drawn += Long.parseLong(m.group(1).replace(",", ""));
        }
        assertEquals(values.values().stream().mapToLong(Integer::longValue).sum(), drawn, svg);
        // over little more than a decade, 1-2-5 ticks: a lone "1,000" under 300 .. 5,000 before
        String narrow = figure(java.util.Map.of(300.0, 4, 800.0, 9, 1200.0, 5, 5000.0, 1), Double.NaN);
        for (String tick : List.of(">500</text>", ">1,000</text>", ">2,000</text>", ">5,000</text>")) {
            assertTrue(narrow.contains(tick), tick + " in " + narrow);
        }
    }

    /** Below 100 documents nothing is cut at p99: it is the largest value or next to it, and a bar of one says nothing. */
    @Test
    void aFewDocumentsAreDrawnWhole() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        for (int i = 1; i <= 60; i++) {
            values.put(i / 100.0, 1);
        }
        assertTrue(!figure(values, 0.59).contains("class=\"over\""));
        values.put(0.99, 40);
        assertTrue(figure(values, 0.6).contains("<title>above p99 (0.6), up to 0.99: 40 docs</title>"));
    }

    /** A metric that is 0 for most documents says so and draws the others; one with a single value says it. */
    @Test
    void mostlyZeroAndSingleValueMetricsAreSaidInWords() {
        java.util.Map<Double, Integer> values = new java.util.TreeMap<>();
        values.put(0.0, 99_899);
        for (int i = 1; i <= 100; i++) {
            values.put(i / 1000.0, 1);
        }
        values.put(0.9, 1);
        // p99 of all the documents is 0: the figure's own p99, of the others, sets where its bars end (before, one bar)
        String svg = figure(values, 0);
        assertTrue(svg.startsWith("<p class=\"note\">99,899 documents (99.9%) are 0; the bars show the other 101</p><svg"), svg);
        assertTrue(svg.contains("<title>0.001 – 0.003: 3 docs</title>"), svg);
        // the summary table's p99 counts the zeros: the bar names the p99 it starts above (both were "p99", 0.577 and 0.667)
        assertTrue(svg.contains("<title>above p99 of the non-zero values (0.1), up to 0.9: 1 doc</title>"), svg);
        assertEquals("<p class=\"note\">9 documents (90.0%) are 0; the other one is 0.4</p>",
                figure(new java.util.TreeMap<>(java.util.Map.of(0.0, 9, 0.4, 1)), 0));
        assertEquals("<p class=\"note\">all 144 documents: 1</p>", figure(java.util.Map.of(1.0, 144), 1));
    }

    /** A quantiles.json that cannot be read is named; the row keeps its metric.json's numbers (it was blanked). */
    @Test
    void anUnreadableSketchLeavesTheRow(@TempDir Path dir) throws IOException {
        writeSummary(dir, "n_lines", new long[] {3, 3, 7, 9});
        MetricStatsDict bins = new MetricStatsDict();
        for (long v : new long[] {3, 3, 7, 9}) {
            bins.get(Long.toString(v)).add(1);
        }
        Files.createDirectories(dir.resolve("histogram/n_lines"));
        Files.writeString(dir.resolve("histogram/n_lines").resolve(MergeStats.MERGED_NAME), bins.toJson());
        Path sketch = dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_QUANTILES);
        Files.writeString(sketch, "{\"p50\": 3");
        java.util.List<String> unreadable = new java.util.ArrayList<>();
        String html = StatsReport.render(dir, unreadable);
        assertEquals(1, unreadable.size(), unreadable.toString());
        assertTrue(unreadable.get(0).startsWith(sketch + ": malformed stats file"), unreadable.toString());
        // docs, mean, std, min, then p50/p90/p99 from the histogram (ranks 1, 2, 2 of 3, 3, 7, 9), max
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>4</td><td>5.5</td><td>3</td><td>3</td><td>3</td><td>7</td>"
                + "<td>7</td><td>9</td></tr>"), html);
        assertTrue(html.contains("one that could not be read"), html);
    }

    /**
     * The domain tables say how many of the corpus's documents they cover: 61 of 15,279 had a URL in a mixed corpus,
     * and a table of those alone read as a picture of the whole.
     */
    @Test
    void domainTablesSayWhatShareOfTheCorpusTheyCover(@TempDir Path dir) throws IOException {
        writeSummary(dir, "length", new long[] {10, 20, 30, 40, 50, 60, 70, 80});
        Files.createDirectories(dir.resolve("fqdn/length"));
        Files.writeString(dir.resolve("fqdn/length").resolve(MergeStats.MERGED_NAME),
                "{\"a.example.com\": {\"total\": 30, \"n\": 2, \"mean\": 15.0, \"unit\": \"task\"},"
                        + " \"\": {\"total\": 30, \"n\": 1, \"mean\": 30.0, \"unit\": \"task\"}}");
        String html = StatsReport.render(dir);
        assertTrue(html.contains("<th>fqdn</th><th>docs</th><th>% of docs</th><th>mean length</th></tr>\n"
                + "<tr><td class=\"key\">a.example.com</td><td>2</td><td>25%</td><td>15</td></tr>\n"
                + "<tr><td class=\"key\"><i>(no registrable host)</i></td><td>1</td><td>12.5%</td><td>30</td></tr>"), html);
        assertTrue(html.contains("3 of the 8 documents (37.5%) are under these 2 keys; the others had no URL, or were under keys top_k dropped. Each rank"), html);
    }
}
