package io.sluice.launcher.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A Slurm that records submissions and answers queue questions from a map the test fills. */
final class RecordingSlurm implements Slurm {

    record Call(List<String> options, Path script, List<String> scriptArgs, String jobId) {
    }

    final List<Call> submitted = new ArrayList<>();
    final List<ArrayTaskState> queue = new ArrayList<>();
    final Map<ArrayTaskState.Key, ArrayTaskState> accounting = new HashMap<>();
    final List<String> cancelled = new ArrayList<>();
    /** When not null, the submission with this index fails as sbatch would, with this message. */
    Integer failAt;
    String failure;
    /** When not null, queue fails with this message, as squeue does when the controller is down. */
    String queueFailure;
    private int nextId = 100;

    @Override
    public String submit(List<String> options, Path script, List<String> scriptArgs) {
        if (failAt != null && submitted.size() == failAt) {
            throw new SlurmException("sbatch failed (exit 1) for " + script + ": " + failure);
        }
        String id = Integer.toString(nextId++);
        submitted.add(new Call(List.copyOf(options), script, List.copyOf(scriptArgs), id));
        return id;
    }

    @Override
    public List<ArrayTaskState> queue(Collection<String> jobIds) {
        if (queueFailure != null) {
            throw new SlurmException(queueFailure);
        }
        return queue.stream().filter(t -> jobIds.contains(t.key().jobId())).toList();
    }

    @Override
    public Map<ArrayTaskState.Key, ArrayTaskState> accounting(Collection<String> jobIds) {
        return accounting;
    }

    @Override
    public void cancel(Collection<String> jobIds) {
        cancelled.addAll(jobIds);
    }
}
