package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardPlanTest {
    @TempDir
    Path dir;

    @Test
    void wholeFilesGoRoundRobinInSortedOrder() throws IOException {
        for (String f : List.of("a.jsonl.gz", "b.jsonl.gz", "c.jsonl.gz", "d.jsonl.gz", "e.jsonl.gz")) {
            TestFiles.write(dir.resolve(f), TestFiles.doc("x", "y"));
        }
        ShardPlan p = ShardPlan.compute(dir, List.of("a.jsonl.gz", "b.jsonl.gz", "c.jsonl.gz", "d.jsonl.gz", "e.jsonl.gz"),
                2, 0, f -> false);
        assertEquals(List.of("a.jsonl.gz", "c.jsonl.gz", "e.jsonl.gz"), p.piecesFor(0).stream().map(InputPiece::file).toList());
        assertEquals(List.of("b.jsonl.gz", "d.jsonl.gz"), p.piecesFor(1).stream().map(InputPiece::file).toList());
        assertEquals(List.of(), p.piecesFor(5));
    }

    @Test
    void bigPlainFilesAreCutIntoRangesAndThePlanRoundTrips() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            sb.append(TestFiles.doc("d" + i, "some words here"));
        }
        TestFiles.write(dir.resolve("big.jsonl"), sb.toString());
        TestFiles.write(dir.resolve("small.jsonl.zst"), sb.toString());
        ShardPlan p = ShardPlan.compute(dir, List.of("big.jsonl", "small.jsonl.zst"), 3, 1000,
                f -> !f.endsWith(".zst"));
        long bigPieces = p.ranks().stream().flatMap(List::stream).filter(x -> x.file().equals("big.jsonl")).count();
        assertEquals((long) Math.ceil(sb.length() / 1000.0), bigPieces);
        assertEquals(1, p.ranks().stream().flatMap(List::stream).filter(x -> x.file().equals("small.jsonl.zst")).count());
        p.write(dir.resolve("plan.json"));
        assertEquals(p, ShardPlan.read(dir.resolve("plan.json")));
    }
}
