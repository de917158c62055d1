package io.sluice.launcher.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which ranks of a stage go to Slurm and how they map onto array elements.
 *
 * <p>The ranks still to run (those without a completion marker) are cut, in rank order, into blocks
 * of {@code local_tasks} ranks; one array element runs one block in one worker JVM. A block is given
 * to the worker as a range {@code first_rank .. first_rank + ranks - 1}: the range may also hold ranks
 * that are already complete, which the worker skips, but never a rank of another block.
 *
 * <p>When the pending ranks are one contiguous run, block {@code i} starts at
 * {@code firstPending + i * local_tasks} and the script computes it; otherwise the script carries the
 * table of blocks (also written to {@code ranks_to_run.json}).
 *
 * <p>Slurm limits array indices ({@code MaxArraySize}), so more than {@code max_array_size} blocks
 * become several submissions; submission {@code s} covers blocks {@code offset .. offset + size - 1}
 * and its array element {@code i} runs block {@code offset + i}.
 */
public record ArrayPlan(int tasks, int localTasks, List<Integer> pendingRanks, List<Block> blocks,
                        boolean contiguous, List<Submission> submissions) {

    /** Ranks {@code firstRank .. firstRank + ranks - 1}, run by one array element. */
    public record Block(int firstRank, int ranks) {
    }

    /**
     * One {@code sbatch} of the stage: array elements {@code 0 .. size - 1} run blocks
     * {@code offset ..}; at most {@code throttle} of them at once (the {@code %N} of {@code --array}),
     * or as many as Slurm allows when {@code throttle} is 0. It starts after submission {@code waitsFor}
     * of the stage has ended, or at once when that is -1.
     */
    public record Submission(int offset, int size, int throttle, int waitsFor) {
        public String arraySpec() {
            return "0-" + (size - 1) + (throttle > 0 ? "%" + throttle : "");
        }
    }

    /**
     * Plans a stage of {@code tasks} ranks of which {@code completed} are done.
     *
     * @param arrayParallelism most array elements of the stage running at once, over all its submissions;
     *                         0 for no limit
     * @param maxArraySize     most array elements in one submission
     */
    public static ArrayPlan of(int tasks, Set<Integer> completed, int localTasks, int arrayParallelism,
                               int maxArraySize) {
        if (localTasks < 1 || arrayParallelism < 0 || maxArraySize < 1) {
            throw new IllegalArgumentException("local_tasks and max_array_size must be >= 1, array_parallelism >= 0");
        }
        List<Integer> pending = new ArrayList<>();
        for (int rank = 0; rank < tasks; rank++) {
            if (!completed.contains(rank)) {
                pending.add(rank);
            }
        }
        boolean contiguous = pending.isEmpty()
                || pending.getLast() - pending.getFirst() + 1 == pending.size();
        List<Block> blocks = new ArrayList<>();
        for (int from = 0; from < pending.size(); from += localTasks) {
            if (contiguous) {
                // same arithmetic as the script: blocks of local_tasks ranks, the last one cut at the last rank
                blocks.add(new Block(pending.getFirst() + from, Math.min(localTasks, pending.size() - from)));
            } else {
                int to = Math.min(from + localTasks, pending.size()) - 1;
                blocks.add(new Block(pending.get(from), pending.get(to) - pending.get(from) + 1));
            }
        }
        // Under array_parallelism P, a submission runs at most min(P, max_array_size) elements at once, and as
        // many submissions run together as fit in P; each later one waits for the one that many places before it
        // to end. With submissions of max_array_size >= P that is one after the other, each at P (as datatrove
        // chains its arrays). Before, P was shared out among all submissions: 1002 blocks in 1001 + 1 under
        // P = 100 ran at %50 each, and the first at half speed once the second had ended.
        int throttle = arrayParallelism == 0 ? 0 : Math.min(arrayParallelism, maxArraySize);
        int together = arrayParallelism == 0 ? Integer.MAX_VALUE : Math.max(1, arrayParallelism / throttle);
        List<Submission> submissions = new ArrayList<>();
        for (int offset = 0; offset < blocks.size(); offset += maxArraySize) {
            int index = submissions.size();
            submissions.add(new Submission(offset, Math.min(maxArraySize, blocks.size() - offset), throttle,
                    index >= together ? index - together : -1));
        }
        return new ArrayPlan(tasks, localTasks, List.copyOf(pending), List.copyOf(blocks), contiguous,
                List.copyOf(submissions));
    }

    public boolean nothingToRun() {
        return pendingRanks.isEmpty();
    }

    /** The pending ranks that block {@code index} runs. */
    public List<Integer> ranksOf(int index) {
        Block b = blocks.get(index);
        return pendingRanks.stream().filter(r -> r >= b.firstRank() && r < b.firstRank() + b.ranks()).toList();
    }
}
