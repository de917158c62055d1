package io.sluice.launcher.slurm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArrayPlanTest {

    @Test
    void freshStageIsContiguousBlocksOfLocalTasks() {
        ArrayPlan p = ArrayPlan.of(5, Set.of(), 2, 100, 1001);
        assertTrue(p.contiguous());
        assertEquals(List.of(new ArrayPlan.Block(0, 2), new ArrayPlan.Block(2, 2), new ArrayPlan.Block(4, 1)),
                p.blocks());
        assertEquals(List.of(new ArrayPlan.Submission(0, 3, 100, -1)), p.submissions());
        assertEquals("0-2%100", p.submissions().getFirst().arraySpec());
        assertEquals(List.of(4), p.ranksOf(2));
    }

    @Test
    void tailOfCompletedRanksKeepsTheFormula() {
        ArrayPlan p = ArrayPlan.of(10, Set.of(0, 1, 2, 3), 3, 10, 1001);
        assertTrue(p.contiguous());
        assertEquals(List.of(new ArrayPlan.Block(4, 3), new ArrayPlan.Block(7, 3)), p.blocks());
    }

    @Test
    void scatteredPendingRanksGetBlocksThatHoldNoOtherBlocksRank() {
        // pending: 1, 4, 5, 9 -> blocks {1,4} and {5,9}
        ArrayPlan p = ArrayPlan.of(10, Set.of(0, 2, 3, 6, 7, 8), 2, 10, 1001);
        assertFalse(p.contiguous());
        assertEquals(List.of(new ArrayPlan.Block(1, 4), new ArrayPlan.Block(5, 5)), p.blocks());
        assertEquals(List.of(1, 4), p.ranksOf(0));
        assertEquals(List.of(5, 9), p.ranksOf(1));
    }

    @Test
    void moreBlocksThanMaxArraySizeAreSplitAndRunOneAfterTheOtherAtTheFullThrottle() {
        // before, %33 each, all at once: once the short third had ended, the others ran at two thirds of the limit
        ArrayPlan p = ArrayPlan.of(2500, Set.of(), 1, 100, 1001);
        assertEquals(List.of(new ArrayPlan.Submission(0, 1001, 100, -1), new ArrayPlan.Submission(1001, 1001, 100, 0),
                new ArrayPlan.Submission(2002, 498, 100, 1)), p.submissions());
        assertEquals("0-497%100", p.submissions().get(2).arraySpec());
        // 12 blocks in 10 + 2 under 4: before %2 + %2, and the first at 2 once the second had ended
        assertEquals(List.of(new ArrayPlan.Submission(0, 10, 4, -1), new ArrayPlan.Submission(10, 2, 4, 0)),
                ArrayPlan.of(12, Set.of(), 1, 4, 10).submissions());
        // submissions smaller than the limit run several at once, together within it
        assertEquals(List.of(new ArrayPlan.Submission(0, 10, 10, -1), new ArrayPlan.Submission(10, 10, 10, -1),
                new ArrayPlan.Submission(20, 10, 10, -1), new ArrayPlan.Submission(30, 5, 10, 0)),
                ArrayPlan.of(35, Set.of(), 1, 30, 10).submissions());
        // no limit: every submission at once
        assertEquals(List.of(new ArrayPlan.Submission(0, 10, 0, -1), new ArrayPlan.Submission(10, 2, 0, -1)),
                ArrayPlan.of(12, Set.of(), 1, 0, 10).submissions());
    }

    @Test
    void completeStageHasNothingToRun() {
        ArrayPlan p = ArrayPlan.of(3, Set.of(0, 1, 2), 1, 1, 1);
        assertTrue(p.nothingToRun());
        assertTrue(p.submissions().isEmpty());
    }

    @Test
    void moreSubmissionsThanArrayParallelismWaitInTurnSoTheLimitHolds() {
        // 30 blocks in 3 submissions of 10 under array_parallelism 2: before, each got %1 and all three ran at once
        ArrayPlan p = ArrayPlan.of(30, Set.of(), 1, 2, 10);
        assertEquals(List.of(new ArrayPlan.Submission(0, 10, 2, -1), new ArrayPlan.Submission(10, 10, 2, 0),
                new ArrayPlan.Submission(20, 10, 2, 1)), p.submissions());
    }
}
