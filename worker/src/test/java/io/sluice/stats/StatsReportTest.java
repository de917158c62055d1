package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.pipeline.MetricStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertEquals("", StatsReport.fmt(Double.NaN));
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
        Files.writeString(stat.resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(sketch));
        String html = StatsReport.render(dir);
        // min, p50, p90, p99, max
        assertTrue(html.contains("<td>6</td><td>6</td><td>1,000</td><td>1,000</td><td>1,000</td></tr>"), html);
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
        Files.writeString(stat.resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(sketch));
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
        Files.writeString(dir.resolve("summary/n_lines").resolve(MergeStats.MERGED_QUANTILES), MergeStats.quantilesJson(part));
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
        assertTrue(html.contains("n_lines</a> &dagger;</td><td>200</td><td colspan=\"3\" class=\"note\">(no summary group)</td>"
                + "<td>3</td><td>7</td><td>40</td><td></td></tr>"), html);

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
        assertTrue(rows.contains("<th>mean avg_words_per_line</th></tr>\n<tr><td>dots.example.com</td><td>20</td><td>1</td></tr>\n"
                + "<tr><td>full.example.com</td><td>5</td><td>1</td></tr>\n<tr><td>zero.example.com</td><td title="), rows);
        assertTrue(rows.contains(" which keeps no document count\">?</td><td>0</td></tr>"), rows);
        assertTrue(rows.contains("3 keys in the merged files. Where top_k cuts this group (top_k_groups: fqdn and suffix by default), each rank keeps its top_k keys by documents"), rows);

        // every document without a URL: the report says so, not only "0 keys"
        Files.writeString(dir.resolve("fqdn/n_words").resolve(MergeStats.MERGED_NAME), "{}");
        Files.writeString(dir.resolve("fqdn/avg_words_per_line").resolve(MergeStats.MERGED_NAME), "{}");
        assertTrue(StatsReport.render(dir).contains("No keys: no document had a URL where the stats steps' url_key looked"
                + " (their task logs count such documents as no_url_fqdn)."));
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
}
