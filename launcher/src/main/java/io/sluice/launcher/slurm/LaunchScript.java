package io.sluice.launcher.slurm;

import io.sluice.job.Job;
import io.sluice.job.MemorySize;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders a stage's sbatch array script ({@code <logging_dir>/<stage>/slurm/launch_script.slurm}).
 *
 * <p>Array element {@code i} of the submission with block offset {@code $1} runs block
 * {@code $1 + i} of the {@link ArrayPlan} in one worker JVM with {@code cpus_per_task} workers.
 * Every value from the job file reaches the shell single-quoted (see {@link ShellQuote}), except
 * {@code env_command}, which is shell code the user asked to run before {@code java}.
 */
public final class LaunchScript {

    private static final int BLOCKS_PER_LINE = 10;

    private LaunchScript() {
    }

    /**
     * The script of {@code stage}; its {@code #SBATCH --array} line holds the first submission's range,
     * so that it can be resubmitted by hand ({@code launcher submit} passes each range on the command line).
     */
    public static String render(Job job, Job.Stage stage, ArrayPlan plan, SbatchOptions sbatch,
                                WorkerCommand worker, Path jobJson) {
        SlurmOptions s = SlurmOptions.of(job, stage);
        StringBuilder b = new StringBuilder();
        b.append("#!/bin/bash\n");
        b.append("# Stage ").append(oneLine(stage.name())).append(" of job ").append(oneLine(job.name()))
                .append(", written by `launcher submit`.\n");
        b.append("# Array element i runs block ($1 + i) of ranks_to_run.json; $1 is the block offset of this\n");
        b.append("# submission (0 unless the stage has more than max_array_size blocks).\n");
        for (String line : sbatch.directives()) {
            b.append(line).append('\n');
        }
        b.append("#SBATCH --array=").append(plan.submissions().getFirst().arraySpec()).append('\n');
        b.append('\n');
        if (s.requeue()) {
            // first of all: a USR1 before the trap is set would kill the script (bash's default action)
            b.append("completions=").append(ShellQuote.quote(io.sluice.io.Completions.folder(jobJson.getParent().resolve(stage.name()))
                    .toString())).append('\n');
            b.append("""
                    # Slurm sends USR1 requeue_grace_seconds (and up to a minute more) before the time limit
                    # (--signal=B:USR1@...): put this element back in the queue, where its completed ranks are
                    # skipped. Once requeued, again only when this attempt completed a rank: one that completed
                    # none would start the same ranks over, and be requeued for ever.
                    done_ranks() {
                      local n=0 r
                      for ((r = ${first_rank:-0}; r < ${first_rank:-0} + ${ranks:-0}; r++)); do
                        if [ -e "$completions/$(printf '%05d' "$r")" ]; then n=$((n + 1)); fi
                      done
                      echo "$n"
                    }
                    requeue() {
                      local element="${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
                      if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ] && [ "$(done_ranks)" -le "${done_at_start:-0}" ]; then
                        echo "sluice: USR1 received, but $element completed no rank in this attempt (requeued ${SLURM_RESTART_COUNT} time(s) before): not requeued again; it ends at its time limit. Give slurm.time more, or fewer ranks per element (local_tasks)" >&2
                        return
                      fi
                      echo "sluice: USR1 received, requeueing $element" >&2
                      scontrol requeue "$element"
                    }
                    trap requeue USR1

                    """);
        }
        b.append("block=$(( ${1:-0} + SLURM_ARRAY_TASK_ID ))\n");
        if (plan.contiguous()) {
            b.append("first_rank=$(( ").append(plan.blocks().getFirst().firstRank()).append(" + block * ")
                    .append(plan.localTasks()).append(" ))\n");
            ArrayPlan.Block last = plan.blocks().getLast();
            if (last.ranks() == plan.localTasks()) {
                b.append("ranks=").append(plan.localTasks()).append('\n');
            } else { // the last block is shorter: its log said "ranks 4..5" of a stage of 5
                int end = last.firstRank() + last.ranks();
                b.append("ranks=$(( ").append(end).append(" - first_rank < ").append(plan.localTasks()).append(" ? ")
                        .append(end).append(" - first_rank : ").append(plan.localTasks()).append(" ))\n");
            }
        } else {
            b.append("# first_rank:ranks of each block\n");
            b.append("blocks=(\n");
            List<ArrayPlan.Block> blocks = plan.blocks();
            for (int i = 0; i < blocks.size(); i += BLOCKS_PER_LINE) {
                b.append("  ").append(blocks.subList(i, Math.min(i + BLOCKS_PER_LINE, blocks.size())).stream()
                        .map(k -> k.firstRank() + ":" + k.ranks()).collect(Collectors.joining(" "))).append('\n');
            }
            b.append(")\n");
            b.append("IFS=: read -r first_rank ranks <<< \"${blocks[block]}\"\n");
        }
        if (s.requeue()) {
            b.append("done_at_start=$(done_ranks)\n");
        }
        b.append("printf 'sluice: stage %s, ranks %s..%s, on %s\\n' ").append(ShellQuote.quote(stage.name()))
                .append(" \"$first_rank\" \"$(( first_rank + ranks - 1 ))\" \"${SLURMD_NODENAME:-$(hostname)}\"\n");
        appendEnvCommand(b, s);
        b.append(HUGE_PAGES);
        String java = javaCommand(worker, jobJson, stage, s, s.cpusPerTask())
                + " --first-rank \"$first_rank\" --ranks \"$ranks\"";
        if (s.requeue()) {
            // bash runs a trap only between commands: the worker runs in the background and the
            // shell waits, so the trap fires at once; wait again until the worker itself has ended
            b.append(java).append(" &\n");
            b.append("worker=$!\n");
            b.append("while wait \"$worker\"; status=$?; kill -0 \"$worker\" 2>/dev/null; do :; done\n");
        } else {
            b.append(java).append('\n');
            b.append("status=$?\n");
        }
        // in Slurm's output file, which `launcher status` shows: a worker killed by the OOM killer or a
        // signal leaves no word in its own log
        b.append("""
                if [ "$status" -gt 128 ]; then
                  echo "sluice: the worker was killed by signal $(( status - 128 )) (exit status $status)" >&2
                elif [ "$status" -ne 0 ]; then
                  echo "sluice: the worker exited with status $status" >&2
                fi
                exit "$status"
                """);
        return b.toString();
    }

    /**
     * The script of the stage's stats merge, run once after all its array jobs succeeded: the worker
     * with an empty block of ranks writes {@code <stage>/stats.json} from the stats of every completed
     * rank. The array elements write it too, as each finishes, but concurrently; this is the last word.
     */
    public static String renderStatsMerge(Job job, Job.Stage stage, SbatchOptions sbatch, WorkerCommand worker,
                                          Path jobJson) {
        SlurmOptions s = SlurmOptions.of(job, stage);
        StringBuilder b = new StringBuilder();
        b.append("#!/bin/bash\n");
        b.append("# Stats merge of stage ").append(oneLine(stage.name())).append(" of job ").append(oneLine(job.name()))
                .append(", written by `launcher submit`.\n");
        for (String line : sbatch.directives()) {
            b.append(line).append('\n');
        }
        // an array of one, so that squeue, status and cancel treat it like the stage's jobs
        b.append("#SBATCH --array=0\n");
        appendEnvCommand(b, s);
        b.append(HUGE_PAGES);
        b.append("exec ").append(javaCommand(worker, jobJson, stage, s, 1)).append(" --first-rank 0 --ranks 0\n");
        return b.toString();
    }

    /**
     * Transparent huge pages for the worker's heap where the node's kernel gives them on request ("madvise"; with
     * "always" the heap has them anyway, and with "never" the flag makes the JVM print two warnings), as bin/launcher
     * asks: see {@link WorkerCommand#JVM_FLAGS}. Decided on the node, whose kernel may differ from the login node's.
     */
    private static final String HUGE_PAGES = """
            thp=()
            if grep -qs '\\[madvise\\]' /sys/kernel/mm/transparent_hugepage/enabled; then thp=(-XX:+UseTransparentHugePages); fi
            """;

    private static void appendEnvCommand(StringBuilder b, SlurmOptions s) {
        if (s.envCommand() != null && !s.envCommand().isBlank()) {
            // run in this shell (what it exports stays); any of its commands that fails (as set -e sees it: not
            // one tested by if, && or ||) stops here, not at a missing java. A `{ ...; } || exit` saw only the
            // last line's status, so a failed `module load` before an `export` went unnoticed
            b.append("\n# env_command from the job file\n")
                    .append("trap 'status=$?; echo \"sluice: env_command failed (exit status $status);")
                    .append(" the worker was not started\" >&2; exit \"$status\"' ERR\n")
                    .append(s.envCommand().strip()).append("\ntrap - ERR\n\n");
        }
    }

    /** The quoted worker command for {@code cpus} CPUs, without its block of ranks. */
    private static String javaCommand(WorkerCommand worker, Path jobJson, Job.Stage stage, SlurmOptions s,
                                      int cpus) {
        long taskMegabytes = taskMegabytes(s, cpus);
        long heap = taskMegabytes > 0 ? MemorySize.heapMegabytes(taskMegabytes) : 0;
        List<String> words = worker.words(jobJson, stage.name(), heap, cpus);
        return ShellQuote.quote(words.getFirst()) + " \"${thp[@]}\" " + words.subList(1, words.size()).stream()
                .map(ShellQuote::quote).collect(Collectors.joining(" "));
    }

    /**
     * The memory an array task of {@code cpus} CPUs gets: {@code cpus x mem_per_cpu} (from the slurm block
     * or sbatch_args), or sbatch_args' {@code --mem} (per node, and a task has one node); 0 when unknown
     * ({@code --mem-per-gpu}, {@code --mem=0} for the whole node), and the JVM then sizes its heap itself.
     */
    static long taskMegabytes(SlurmOptions s, int cpus) {
        Map<String, String> extra = s.sbatchArgs() == null ? Map.of() : s.sbatchArgs();
        String perCpu = s.memPerCpu() != null && !s.memPerCpu().isBlank() ? s.memPerCpu() : extra.get("mem-per-cpu");
        if (perCpu != null) {
            return MemorySize.megabytes(perCpu, "slurm.mem_per_cpu") * cpus;
        }
        return extra.containsKey("mem") ? MemorySize.megabytes(extra.get("mem"), "slurm.sbatch_args.mem") : 0;
    }

    /** A name inside a comment line: a line break would end the comment. */
    private static String oneLine(String s) {
        return "'" + s.replaceAll("[\\r\\n]", "?") + "'";
    }
}
