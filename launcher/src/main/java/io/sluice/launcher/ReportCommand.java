package io.sluice.launcher;

import io.sluice.stats.StatsReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code launcher report <stats folder>}: one self-contained HTML page from merged statistics. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Render merged statistics (the output of merge_stats) as one static HTML page: "
                + "summary table with p50/p90/p99, a histogram per metric, top domains and suffixes.",
                "Exit code 1 when a file could not be read: the page is still written, without what that file holds;"
                        + " 2 when FOLDER does not exist or holds no merged stats."})
public final class ReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FOLDER", description = "merged stats folder (<group>/<stat>/metric.json)")
    Path folder;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "HTML file to write (default: FOLDER/report.html)")
    Path output;

    @Override
    public Integer call() throws Exception {
        Path out = output != null ? output : folder.resolve("report.html");
        // with -o /dev/stdout the page goes down a pipe: what is said about it goes to stderr
        java.io.PrintStream say = StatsReport.isDevice(out) ? System.err : System.out;
        StatsReport.Written written;
        try {
            written = StatsReport.write(folder, out);
        } catch (StatsReport.NotAStatsFolder e) {
            System.err.println("error: " + e.getMessage());
            return 2; // the command line is wrong (launcher --help's exit codes)
        }
        say.println("report written to " + out);
        int unmerged = written.unmerged().size();
        if (unmerged > 0) {
            say.println("note: " + unmerged + " stat folder(s) hold per-rank files but no metric.json and are"
                    + " left out of the report; run merge_stats (the page lists them)");
        }
        if (!written.stale().isEmpty()) {
            say.println("note: " + written.stale().size() + " stat folder(s) hold per-rank files written after their"
                    + " metric.json (the stats ran again since the merge): the report shows the earlier merge's numbers;"
                    + " run merge_stats again (a job that skips it as complete: delete that stage's completions in its"
                    + " logging_dir first): " + StatsReport.firstFew(written.stale()));
        }
        if (!written.miscounted().isEmpty()) {
            say.println("note: " + written.miscounted().size() + " stat(s) count other documents than the rest of"
                    + " their block, or their summary: their files may come from another run (a setting, a group or the"
                    + " input changed since): " + written.miscounted().get(0)
                    + (written.miscounted().size() > 1 ? " (the page lists them)" : ""));
        }
        // one bad file no longer costs the whole page: the rest is written, the bad file named here and on the page
        for (String problem : written.unreadable()) {
            System.err.println("error: " + problem);
        }
        if (!written.unreadable().isEmpty()) {
            System.err.println("error: " + written.unreadable().size() + " file(s) could not be read; the report leaves out"
                    + " what they hold and says so where it would be");
            return 1;
        }
        return 0;
    }
}
