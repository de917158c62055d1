package io.sluice.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs a small stats job (two stages: measure, merge) through the launcher, then renders the report. */
class ReportCommandTest {
    @TempDir
    Path dir;

    private Path statsFromSmallRun() throws IOException {
        Path corpus = Path.of(System.getProperty("sluice.shared", "../shared")).resolve("data/corpus");
        Assumptions.assumeTrue(Files.exists(corpus.resolve("web_dolma_cc.jsonl.zst")), "shared data not present");
        String yaml = """
                name: stats-report
                logging_dir: $ROOT/logs
                tasks: 2
                workers: 1
                stages:
                  - name: stats
                    steps:
                      - read_jsonl: {path: $CORPUS, glob: "web_dolma_cc.jsonl.zst"}
                      - doc_stats: {output: $ROOT/stats, url_key: metadata.metadata.url}
                      - word_stats: {output: $ROOT/stats, url_key: metadata.metadata.url}
                      - line_stats: {output: $ROOT/stats, url_key: metadata.metadata.url}
                  - name: merge
                    tasks: 1
                    steps:
                      - merge_stats: {input: $ROOT/stats}
                """.replace("$ROOT", dir.toString()).replace("$CORPUS", corpus.toString());
        Path job = dir.resolve("job.yaml");
        Files.writeString(job, yaml);
        assertEquals(0, Launcher.execute("run", job.toString()));
        return dir.resolve("stats");
    }

    @Test
    void rendersAPageFromAStatsRun() throws IOException {
        Path stats = statsFromSmallRun();
        assertTrue(Files.exists(stats.resolve("summary/length/metric.json")));
        assertEquals(0, new CommandLine(new ReportCommand()).execute(stats.toString()));
        String html = Files.readString(stats.resolve("report.html"));
        assertTrue(html.contains("700 documents"), "document count in the header");
        for (String stat : new String[] {"length", "n_words", "avg_line_length", "stop_word_ratio"}) {
            assertTrue(html.contains("<figure id=\"" + stat + "\">"), "histogram of " + stat);
        }
        assertTrue(html.contains("<th>p50</th><th>p90</th><th>p99</th>"));
        assertTrue(html.contains("long_line_ratio_chars_10000</a></td><td>700</td>"),
                "an all-zero metric still counts its 700 documents");
        assertTrue(html.contains("<h2>Top domains</h2>") && html.contains("<h2>Top suffixes</h2>"));
        assertTrue(html.contains("<td class=\"key\">com</td>"), "the .com suffix is among the top suffixes");
        assertEquals(26 + 1, html.split("<figure ").length, "one figure per metric (7 + 9 + 10)");
        // an inline SVG each, but for a metric of one value: it is said in words (a chart of one full-width bar, before)
        assertTrue(html.contains("<figure id=\"long_line_ratio_chars_10000\"><figcaption>long_line_ratio_chars_10000</figcaption>"
                + "<p class=\"desc\">share of the lines of at least 10000 characters</p><p class=\"note\">all 700 documents: 0</p>"), html);
        int oneValue = html.split("<p class=\"note\">all ").length - 1;
        assertEquals(26 + 1, html.split("<svg ").length + oneValue, "one inline SVG per metric of more than one value");
        assertTrue(!html.contains("http://") || html.indexOf("http://") == html.indexOf("http://www.w3.org/2000/svg"),
                "no external resources");

        Path other = dir.resolve("elsewhere/r.html");
        assertEquals(0, new CommandLine(new ReportCommand()).execute(stats.toString(), "-o", other.toString()));
        assertEquals(html, Files.readString(other), "deterministic");

        // an existing folder as -o: before, "r.html.tmp -> elsewhere: Is a directory", and the .tmp stayed
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cmd = new CommandLine(new ReportCommand());
        cmd.setErr(new java.io.PrintWriter(err));
        assertTrue(cmd.execute(stats.toString(), "-o", dir.resolve("elsewhere").toString()) != 0);
        assertTrue(err.toString().contains("could not write the report to " + dir.resolve("elsewhere") + ": it is a folder"), err.toString());
        try (var files = Files.list(dir.resolve("elsewhere"))) {
            assertEquals(java.util.List.of(other), files.toList());
        }

        // a stat folder not merged yet is said, not silently left out
        Path late = stats.resolve("summary/late_stat");
        Files.createDirectories(late);
        Files.copy(stats.resolve("summary/length/metric.json"), late.resolve("00000.json"));
        assertEquals(0, new CommandLine(new ReportCommand()).execute(stats.toString()));
        assertTrue(Files.readString(stats.resolve("report.html")).contains("<b>Not merged:</b> 1 stat folder(s) hold"
                + " per-rank files but no metric.json and are left out (summary/late_stat); run merge_stats."));
    }

    @Test
    void validateChecksTheMergeInput() throws IOException {
        Path job = dir.resolve("merge-only.yaml");
        Files.writeString(job, """
                name: merge-only
                logging_dir: $ROOT/logs
                stages:
                  - name: merge
                    tasks: 1
                    steps:
                      - merge_stats: {input: $ROOT/no-stats-here}
                """.replace("$ROOT", dir.toString()));
        assertEquals(2, Launcher.execute("validate", job.toString()));
    }

    @Test
    void aFolderWithOnlyDomainGroupsGetsTheirTables() throws IOException {
        Path stats = dir.resolve("domains");
        Files.createDirectories(stats.resolve("fqdn/length"));
        Files.writeString(stats.resolve("fqdn/length/metric.json"),
                "{\"a.example.org\": {\"total\": 30, \"n\": 3, \"mean\": 10.0, \"unit\": \"task\"}}");
        assertEquals(0, new CommandLine(new ReportCommand()).execute(stats.toString()));
        String html = Files.readString(stats.resolve("report.html"));
        assertTrue(html.contains("<h2>Top domains</h2>") && html.contains("<td class=\"key\">a.example.org</td>"), html);
        assertTrue(!html.contains("<h2>Summary</h2>"), html);

        // a folder that is not one of merged stats is a mistake in the command line: exit 2, as --help says
        Files.createDirectories(dir.resolve("nothing/summary"));
        assertTrue(reportErrors(2, dir.resolve("nothing").toString()).contains("error: " + dir.resolve("nothing") + " holds no"
                + " merged stats (<group>/<stat>/metric.json): give the folder merge_stats writes (its output, which is its"
                + " input unless the step sets one)\n"));
        // the folder of stats steps that saw no document: told so, not "give the folder merge_stats writes", which it is
        Files.createDirectories(dir.resolve("empty"));
        assertTrue(reportErrors(2, dir.resolve("empty").toString()).contains("error: " + dir.resolve("empty") + " holds no"
                + " merged stats (<group>/<stat>/metric.json): it is empty, as the stats steps writing there leave it when they"
                + " saw no document (or have not run)\n"));
        assertTrue(reportErrors(2, dir.resolve("absent").toString()).contains("error: stats folder does not exist: "
                + dir.resolve("absent")));
        // per-rank stats only: before, "run merge_stats first" where merge_stats had run with an output of its own
        Files.createDirectories(dir.resolve("ranks/summary/length"));
        Files.writeString(dir.resolve("ranks/summary/length/00000.json"), "{\"total\": 3}");
        assertTrue(reportErrors(2, dir.resolve("ranks").toString()).contains("(its output, which is its input unless the step"
                + " sets one), or run merge_stats on these per-rank stats first\n"));
    }

    /**
     * A file that cannot be read is named, on stderr and on the page, which is still written with the rest: exit 1.
     * Before, one truncated metric.json (or a NaN datatrove wrote) cost the whole page.
     */
    @Test
    void anUnreadableFileIsNamedAndThePageHasTheRest() throws IOException {
        Path stats = dir.resolve("partly");
        Files.createDirectories(stats.resolve("fqdn/length"));
        Files.createDirectories(stats.resolve("summary/length"));
        Files.writeString(stats.resolve("fqdn/length/metric.json"), "{\"a.example.org\": {\"total\": 30, \"n\": 3}}");
        Files.writeString(stats.resolve("summary/length/metric.json"), "{\"summary\": {\"total\": 30, \"n\"");
        String err = reportErrors(1, stats.toString());
        assertTrue(err.startsWith("error: " + stats.resolve("summary/length/metric.json") + ": malformed stats file (truncated or"
                + " not JSON)"), err);
        assertTrue(err.endsWith("error: 1 file(s) could not be read; the report leaves out what they hold and says so where it"
                + " would be\n"), err);
        String html = Files.readString(stats.resolve("report.html"));
        assertTrue(html.contains("<td class=\"key\">a.example.org</td>") && html.contains("<b>Unreadable:</b> 1 file(s)"), html);
    }

    /** Stale folders are named on the console as on the page, as a plain list (it printed Java's "[summary/length]"). */
    @Test
    void staleFoldersAreNamedOnTheConsole() throws IOException {
        Path stats = dir.resolve("stale");
        Files.createDirectories(stats.resolve("summary/length"));
        Path merged = Files.writeString(stats.resolve("summary/length/metric.json"), "{\"summary\": {\"total\": 30, \"n\": 3}}");
        Path rank = Files.writeString(stats.resolve("summary/length/00000.json"), "{\"summary\": {\"total\": 30, \"n\": 3}}");
        Files.setLastModifiedTime(rank, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(merged).toMillis() + 1_000));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.out;
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertEquals(0, Launcher.execute("report", stats.toString()));
        } finally {
            System.setOut(saved);
        }
        String said = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(said.contains("note: 1 stat folder(s) hold per-rank files written after their metric.json (the stats ran"
                + " again since the merge): the report shows the earlier merge's numbers; run merge_stats again (a job that skips it as complete: delete"
                + " that stage's completions in its logging_dir first): summary/length\n"), said);
    }

    /** What `launcher report` prints on stderr, and its exit code. */
    private static String reportErrors(int expectedExit, String... args) {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 1];
            all[0] = "report";
            System.arraycopy(args, 0, all, 1, args.length);
            assertEquals(expectedExit, Launcher.execute(all));
        } finally {
            System.setErr(saved);
        }
        return err.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aReportThatCannotBeWrittenNamesTheFileTheReasonAndTheOption() throws IOException {
        // before: only "error: <dir>/afile: already exists" (what java.nio said of the folder it could not make)
        Path stats = dir.resolve("stats");
        Files.createDirectories(stats.resolve("fqdn/length"));
        Files.writeString(stats.resolve("fqdn/length/metric.json"), "{\"a.example.org\": {\"total\": 30, \"n\": 3}}");
        Path afile = Files.writeString(dir.resolve("afile"), "not a folder");
        for (Path out : List.of(afile.resolve("r.html"), afile.resolve("sub/r.html"))) {
            assertEquals("error: could not write the report to " + out + ": " + afile + " is a file, not a folder;"
                    + " choose another file with --output FILE\n", reportErrors(1, stats.toString(), "--output", out.toString()));
        }
        assertEquals("not a folder", Files.readString(afile));

        // the default FOLDER/report.html, where a folder of that name is
        Files.createDirectories(stats.resolve("report.html"));
        assertEquals("error: could not write the report to " + stats.resolve("report.html") + ": it is a folder;"
                + " choose another file with --output FILE\n", reportErrors(1, stats.toString()));
        assertEquals("", reportErrors(0, stats.toString(), "--output", dir.resolve("r.html").toString()));
        assertTrue(Files.readString(dir.resolve("r.html")).contains("<td class=\"key\">a.example.org</td>"));
    }

    /**
     * A link is written through, and a device is written to, not replaced: the report was renamed over the
     * path, so "-o /dev/stdout" (run as root) replaced /dev/stdout with a plain file, and a link became a file.
     */
    @Test
    void aLinkOrADeviceIsWrittenThroughNotReplaced() throws IOException {
        Path stats = dir.resolve("stats");
        Files.createDirectories(stats.resolve("fqdn/length"));
        Files.writeString(stats.resolve("fqdn/length/metric.json"), "{\"a.example.org\": {\"total\": 30, \"n\": 3}}");
        Path real = dir.resolve("real.html");
        Path link = Files.createSymbolicLink(dir.resolve("link.html"), real.getFileName());
        assertEquals("", reportErrors(0, stats.toString(), "--output", link.toString()));
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).contains("<td class=\"key\">a.example.org</td>"));

        Path devNull = Path.of("/dev/null");
        Assumptions.assumeTrue(Files.exists(devNull) && !Files.isRegularFile(devNull));
        assertEquals("report written to /dev/null\n", reportErrors(0, stats.toString(), "--output", devNull.toString()));
        assertTrue(!Files.isRegularFile(devNull) && Files.exists(devNull), "/dev/null is still a device");
    }

    @Test
    void missingFolderIsAnError() {
        CommandLine cli = new CommandLine(new ReportCommand());
        assertTrue(cli.execute(dir.resolve("nope").toString()) != 0);
    }

    /** The page as a browser draws it: headless Chromium screenshot, checked to be neither blank nor tiny. */
    @Test
    @Tag("browser")
    void headlessChromiumScreenshot() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        Assumptions.assumeTrue(Files.isExecutable(chromium), "no /usr/bin/chromium");
        Path stats = statsFromSmallRun();
        assertEquals(0, new CommandLine(new ReportCommand()).execute(stats.toString()));
        String keep = System.getenv("SLUICE_SCREENSHOT"); // set it to keep the PNG for a look
        Path png = keep != null ? Path.of(keep) : dir.resolve("report.png");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--window-size=1280,2400", "--screenshot=" + png.toAbsolutePath(),
                stats.resolve("report.html").toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium finished");
        assertTrue(Files.size(png) > 10_000, "screenshot written");
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1280, img.getWidth());
        long blue = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int b = rgb & 0xff;
                if (b > 180 && r < 90) {
                    blue++;
                }
            }
        }
        assertTrue(blue > 1000, "histogram bars drawn (" + blue + " bar pixels sampled)");
    }
}
