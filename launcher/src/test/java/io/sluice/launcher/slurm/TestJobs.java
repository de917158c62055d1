package io.sluice.launcher.slurm;

import io.sluice.job.Job;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Jobs for the Slurm tests, built directly as records. */
final class TestJobs {

    private TestJobs() {
    }

    static SlurmOptions slurm(int localTasks, int arrayParallelism, int maxArraySize, boolean requeue,
                              String javaHome, Map<String, String> sbatchArgs) {
        return new SlurmOptions("debug", "00:10:00", 2, "1G", localTasks, arrayParallelism, maxArraySize,
                requeue, 60, null, null, null, null, null, javaHome, sbatchArgs);
    }

    /** A job whose slurm: block gives {@code slurm}, as a job file would. */
    static Job job(String name, Path loggingDir, SlurmOptions slurm, Job.Stage... stages) {
        return new Job(name, loggingDir, stages[0].tasks(), 1, true, 0, -1, 0, List.of(stages), block(slurm), Map.of(), "job.yaml: logging_dir");
    }

    /** The slurm: block that reads as {@code o}: every key, null ones too (a null mem_per_cpu is none, not 2G). */
    static Map<String, Object> block(SlurmOptions o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", o.partition());
        m.put("time", o.time());
        m.put("cpus_per_task", o.cpusPerTask());
        m.put("mem_per_cpu", o.memPerCpu());
        m.put("local_tasks", o.localTasks());
        m.put("array_parallelism", o.arrayParallelism());
        m.put("max_array_size", o.maxArraySize());
        m.put("requeue", o.requeue());
        m.put("requeue_grace_seconds", o.requeueGraceSeconds());
        m.put("env_command", o.envCommand());
        m.put("qos", o.qos());
        m.put("account", o.account());
        m.put("mail_type", o.mailType());
        m.put("mail_user", o.mailUser());
        m.put("java_home", o.javaHome());
        m.put("sbatch_args", new LinkedHashMap<Object, Object>(o.sbatchArgs()));
        return m;
    }

    static Job.Stage stage(String name, int tasks, String... depends) {
        return new Job.Stage(name, tasks, 1, depends.length == 0 ? null : List.of(depends), List.of()); // none: after the stage before
    }
}
