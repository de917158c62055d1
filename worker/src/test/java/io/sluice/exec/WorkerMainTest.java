package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.io.TestFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's entry point, as a Slurm array element runs it. */
class WorkerMainTest {
    @TempDir
    Path root;

    /**
     * A stage run while a stage it reads has ranks not complete is refused: submit chains it after the whole array,
     * but its launch script sent again by hand (sbatch --array=0 ...) is not, and merged a part of the stats, marked
     * complete (report: "925 documents" of 1,100).
     */
    @Test
    void aStageWhoseInputIsNotCompleteIsRefused() throws IOException {
        TestFiles.write(root.resolve("in/a.jsonl"), TestFiles.doc("a", "one two") + "\n");
        TestFiles.write(root.resolve("in/b.jsonl"), TestFiles.doc("b", "three four five") + "\n");
        Path job = TestFiles.write(root.resolve("job.yaml"), """
                name: w
                logging_dir: %1$s/logs
                stages:
                  - name: stats
                    tasks: 2
                    steps:
                      - read_jsonl: {path: %1$s/in}
                      - word_stats: {output: %1$s/stats, groups: [summary]}
                  - name: merge
                    steps:
                      - merge_stats: {input: %1$s/stats}
                """.formatted(root));
        assertEquals(0, worker(job, "stats", 0).exit);

        System.setProperty(WorkerMain.SETTLE_PROPERTY, "0"); // not the minute a node's NFS cache may lag
        Run merge;
        try {
            merge = worker(job, "merge", 0);
        } finally {
            System.clearProperty(WorkerMain.SETTLE_PROPERTY);
        }
        assertEquals(2, merge.exit, merge.err);
        assertEquals("sluice worker: stage 'merge' depends on 'stats', which has 1 of 2 ranks not complete, so it would"
                + " read a part of its input; run that stage to the end first (bin/launcher submit submits the ranks not"
                + " complete, and this stage after them)\n", merge.err);
        assertFalse(Files.exists(root.resolve("stats/summary/n_words/metric.json")));

        assertEquals(0, worker(job, "stats", 1).exit);
        assertEquals(0, worker(job, "merge", 0).exit);
        assertTrue(Files.readString(root.resolve("stats/summary/n_words/metric.json")).contains("\"total\": 5"));
    }

    private record Run(int exit, String err) {
    }

    private static Run worker(Path job, String stage, int rank) {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int exit = WorkerMain.run(new String[] {"--job", job.toString(), "--stage", stage, "--first-rank",
                String.valueOf(rank), "--ranks", "1", "--workers", "1"});
            return new Run(exit, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }
}
