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
        assertEquals(List.of(new ArrayPlan.Block(0, 2), new ArrayPlan.Block(2, 2), new ArrayPlan.Block(4, 2)),
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
    void moreBlocksThanMaxArraySizeAreSplitAndShareTheThrottle() {
        ArrayPlan p = ArrayPlan.of(2500, Set.of(), 1, 100, 1001);
        assertEquals(List.of(new ArrayPlan.Submission(0, 1001, 33, -1), new ArrayPlan.Submission(1001, 1001, 33, -1),
                new ArrayPlan.Submission(2002, 498, 33, -1)), p.submissions());
        assertEquals("0-497%33", p.submissions().get(2).arraySpec());
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
        assertEquals(List.of(new ArrayPlan.Submission(0, 10, 1, -1), new ArrayPlan.Submission(10, 10, 1, -1),
                new ArrayPlan.Submission(20, 10, 1, 0)), p.submissions());
    }
}
