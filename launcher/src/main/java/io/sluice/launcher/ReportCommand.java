package io.sluice.launcher;

import io.sluice.stats.StatsReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code launcher report <stats folder>}: one self-contained HTML page from merged statistics. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Render merged statistics (the output of merge_stats) as one static HTML page: "
                + "summary table with p50/p90/p99, a histogram per metric, top domains and suffixes.")
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
        int unmerged;
        try {
            unmerged = StatsReport.write(folder, out).size();
        } catch (StatsReport.NotAStatsFolder e) {
            System.err.println("error: " + e.getMessage());
            return 2; // the command line is wrong (launcher --help's exit codes)
        }
        say.println("report written to " + out);
        if (unmerged > 0) {
            say.println("note: " + unmerged + " stat folder(s) hold per-rank files but no metric.json and are"
                    + " left out of the report; run merge_stats (the page lists them)");
        }
        return 0;
    }
}
