package io.sluice.launcher.slurm;

import java.util.Set;

/**
 * The state of one array element as Slurm reports it.
 *
 * @param reason squeue's reason ({@code DependencyNeverSatisfied}, {@code NonZeroExitCode}, ...), may be empty
 * @param restarts how many times Slurm requeued the element (squeue's RestartCnt; 0 where not known, as from sacct)
 */
public record ArrayTaskState(Key key, String state, String reason, int restarts) {

    public ArrayTaskState(Key key, String state, String reason) {
        this(key, state, reason, 0);
    }

    /** Array element {@code taskId} of array job {@code jobId}. */
    public record Key(String jobId, int taskId) {
        @Override
        public String toString() {
            return jobId + "_" + taskId;
        }
    }

    private static final Set<String> ENDED = Set.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
            "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE");

    /** Whether the element has ended for good (it will not run, or run again, without a new submission). */
    public static boolean ended(String state) {
        // sacct writes "CANCELLED by 0"
        return ENDED.contains(state.split(" ")[0]);
    }

    public boolean ended() {
        return ended(state);
    }

    /** Whether Slurm gave a reason: squeue writes "None" for none, sacct nothing. */
    public boolean hasReason() {
        return !reason.isEmpty() && !reason.equals("None");
    }

    public boolean running() {
        return state.equals("RUNNING") || state.equals("COMPLETING") || state.equals("CONFIGURING");
    }
}
