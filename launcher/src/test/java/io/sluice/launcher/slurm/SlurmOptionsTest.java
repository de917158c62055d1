package io.sluice.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.job.Job;
import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The slurm: blocks, read by the launcher as it loads a job file; the worker keeps them as written. */
class SlurmOptionsTest {
    @TempDir
    Path dir;

    private static final String ONE_STAGE = "stages:\n  - name: a\n    tasks: 4\n    steps: [{read_jsonl: {path: x}}]\n";

    private Job load(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return SlurmOptions.loadJob(f);
    }

    private String error(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return assertThrows(JobException.class, () -> SlurmOptions.loadJobToSubmit(f)).getMessage();
    }

    private static SlurmOptions jobOptions(Job job) {
        return SlurmOptions.ofJob(job);
    }

    /** The job as a compute node's job.json holds it, read back by the launcher (as launcher status does). */
    private Job roundTrip(Job job) throws IOException {
        JobFile.writeResolved(job, dir.resolve("resolved.json"));
        return SlurmOptions.loadJob(dir.resolve("resolved.json"));
    }

    /** The slurm: blocks' problems are told in the same round as the steps' and stages'. */
    @Test
    void theBlocksProblemsAreToldWithTheJobsOthers() throws IOException {
        String msg = error("""
                tasks: 0
                stages:
                  - name: a
                    slurm: {cpus_per_task: 0}
                    steps:
                      - read_jsonl: {path: x}
                      - length_filter: {min_wrds: 3}
                  - name: b
                    slurm: {time: soon, sbatch_args: {array: 0-9}}
                    steps: [{read_jsonl: {path: x}}]
                slurm: {time: '1:00:00', array_parallelism: -1, mem_per_cpu: 2}
                """);
        List<String> told = List.of(
                "job.yaml:1: 'tasks' must be a positive integer, got 0",
                "job.yaml:11: slurm: 'mem_per_cpu' is '2', which sbatch reads as 2M per CPU",
                "job.yaml:11: slurm: 'array_parallelism' must be from 0 to 2147483647, got -1",
                "job.yaml:4: stages[0] (a).slurm: 'cpus_per_task' must be a positive integer, got 0",
                "job.yaml:7: stages[0] (a).steps[1] (length_filter): unknown key 'min_wrds' (did you mean 'min_words'?)",
                // what sbatch would refuse, which validate told in a round of its own
                "job.yaml:9: stages[1] (b).slurm.time: 'soon' is not a Slurm time limit",
                "job.yaml:9: stages[1] (b).slurm.sbatch_args: --array is set by `launcher submit` itself");
        List<String> lines = msg.lines().toList();
        assertEquals(told.size() + " problems:", lines.getFirst(), msg);
        assertEquals(told.size() + 1, lines.size(), msg);
        for (int i = 0; i < told.size(); i++) {
            assertTrue(lines.get(i + 1).startsWith("  " + told.get(i)), "problem " + (i + 1) + ": " + msg);
        }
        // the worker reads the job without them: a compute node runs what the launcher checked
        Files.writeString(dir.resolve("w.yaml"), ONE_STAGE + "slurm: {array_parallelism: -1}\n");
        assertEquals(Map.of("array_parallelism", -1), JobFile.load(dir.resolve("w.yaml")).slurm());
        assertEquals("job.yaml:3: stages[0] (a): 'slurm' must be a mapping of the slurm: block's keys, such as {time: '12:00:00'}",
                assertThrows(JobException.class, () -> JobFile.load(writeJob("stages:\n  - name: a\n    slurm: 2h\n"
                        + "    steps: [{read_jsonl: {path: x}}]\n"))).getMessage());
    }

    /**
     * What only sbatch would refuse stops validate and submit, not a local run, status or cancel; a stage's
     * java_home no longer hides its other problems.
     */
    @Test
    void onlyValidateAndSubmitRefuseWhatSbatchWould() throws IOException {
        String yaml = ONE_STAGE + "slurm: {time: '00:01:00'}\n"; // requeue's 120 s grace is not shorter than the minute
        assertTrue(error(yaml).startsWith("job.yaml:5: slurm.requeue_grace_seconds: 120 s is not shorter than its time"), error(yaml));
        assertEquals("00:01:00", jobOptions(load(yaml)).time());
        String stage = "stages:\n  - name: a\n    slurm: {java_home: /x, time: '00:01:00'}\n    steps: [{read_jsonl: {path: x}}]\n";
        assertEquals("2 problems:\n  job.yaml:3: stages[0] (a).slurm: 'java_home' is set in the job's slurm: block only (one build"
                + " runs every stage)\n  job.yaml:3: stages[0] (a).slurm.requeue_grace_seconds: 120 s is not shorter than its"
                + " time '00:01:00' (60 s): each element would be told to requeue itself as soon as it starts, again and"
                + " again; lower requeue_grace_seconds, or set requeue: false", error(stage));
    }

    private Path writeJob(String yaml) throws IOException {
        Path f = dir.resolve("job.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    /** datatrove's SlurmPipelineExecutor arguments in the slurm: block get its names' hints. */
    @Test
    void datatrovesSlurmArgumentsAreNamed() throws IOException {
        String msg;
        msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\nslurm: {time: '1:00:00', srun_args: {}, mem_per_cpu_gb: 2}\n");
        assertTrue(msg.contains("'mem_per_cpu_gb' (datatrove's name; here it is 'mem_per_cpu', a size with its unit:"
                + " 2G for datatrove's 2)"), msg);
        assertTrue(msg.contains("'srun_args' (datatrove's option, not taken here: ranks run without srun;"), msg);
        // before, plain unknown keys, or (workers) advice sending a Slurm user to the job's local threads
        msg = error("stages:\n  - name: a\n    steps: [{read_jsonl: {path: x}}]\n"
                + "slurm: {progress: true, workers: 100, tasks_per_job: 4, max_array_launch_parallel: true, condaenv: nlp}\n");
        assertTrue(msg.contains("'workers' (datatrove's name; here it is 'array_parallelism', the array's %N throttle;"
                + " a job's workers are the threads of one JVM)"), msg);
        assertTrue(msg.contains("'tasks_per_job' (datatrove's option, not taken here: the ranks each array element"
                + " runs are slurm.local_tasks)"), msg);
        assertTrue(msg.contains("'max_array_launch_parallel' (datatrove's option, not taken here: arrays split at"
                + " max_array_size are chained one after another (afterany), each throttled by array_parallelism)"), msg);
        assertTrue(msg.contains("'condaenv' (datatrove's option, not taken here: give env_command"), msg);
        assertTrue(msg.contains("'progress' (datatrove's option, not taken here: run shows a progress line"), msg);
    }

    /** A block key may come in sbatch_args (datatrove's style): a stage's, in either form, replaces the job's. */
    @Test
    void aStageKeyReplacesTheJobsGivenInSbatchArgsAndTheReverse() throws IOException {
        String stages = "stages:\n  - name: a\n    slurm: {time: '48:00:00', sbatch_args: {account: b}}\n"
                + "    steps: [{read_jsonl: {path: x}}]\n";
        Job job = load("slurm: {account: a, sbatch_args: {time: '24:00:00'}}\n" + stages);
        SlurmOptions a = SlurmOptions.of(job, job.stages().get(0));
        assertEquals("48:00:00", a.time());
        assertEquals(null, a.account());
        assertEquals(java.util.Map.of("account", "b"), a.sbatchArgs());
        // a bare number is minutes to sbatch, in sbatch_args too
        assertTrue(error(ONE_STAGE + "slurm: {sbatch_args: {time: 3600}}\n").contains(
                "'sbatch_args.time' is a number (3600), which sbatch reads as minutes"), error(ONE_STAGE + "slurm: {sbatch_args: {time: 3600}}\n"));
        assertTrue(error(ONE_STAGE + "slurm: {time: 0}\n").contains("'time' is a number (0), which sbatch reads as no time"
                + " limit; write it quoted, \"0\", if that is meant"), error(ONE_STAGE + "slurm: {time: 0}\n"));
    }

    @Test
    void memoryPerCpuDefaultsTo2GUnlessSbatchArgsAskForMemoryOrItIsNull() throws IOException {
        assertEquals("2G", jobOptions(load(ONE_STAGE + "slurm: {partition: p}\n")).memPerCpu());
        // sbatch refuses --mem-per-cpu beside --mem: the default made every such submit fail
        assertEquals(null, jobOptions(load(ONE_STAGE + "slurm: {sbatch_args: {mem: 4G}}\n")).memPerCpu());
        assertEquals(java.util.Map.of("mem", "4G"), jobOptions(load(ONE_STAGE + "slurm: {sbatch_args: {--mem: 4G}}\n")).sbatchArgs());
        assertEquals("job.yaml:5: slurm.sbatch_args.mem: '4 GB' is not a Slurm memory size like 2G, 512M or 2000 (whole numbers only)",
                error(ONE_STAGE + "slurm: {sbatch_args: {mem: 4 GB}}\n"));
        assertEquals(null, jobOptions(load(ONE_STAGE + "slurm: {mem_per_cpu: null}\n")).memPerCpu());
        assertEquals("job.yaml:5: slurm: 'mem_per_cpu' cannot be given with sbatch_args' --mem (sbatch takes one of them);"
                + " set mem_per_cpu: null", error(ONE_STAGE + "slurm: {mem_per_cpu: 1G, sbatch_args: {mem: 4G}}\n"));
    }

    @Test
    void slurmValuesSbatchWouldRefuseAreJobErrors() throws IOException {
        assertEquals("job.yaml:5: slurm.mem_per_cpu: '1.5G' is not a Slurm memory size like 2G, 512M or 2000 (whole numbers only)",
                error(ONE_STAGE + "slurm: {mem_per_cpu: 1.5G}\n"));
        // datatrove's mem_per_cpu_gb: 2 written as mem_per_cpu: 2 is two megabytes to sbatch: every task was killed
        assertEquals("job.yaml:5: slurm: 'mem_per_cpu' is '2', which sbatch reads as 2M per CPU (a stage's stats merge job has"
                + " one); a worker needs at least 256M. Give the unit: 2G is two gigabytes",
                error(ONE_STAGE + "slurm: {mem_per_cpu: 2, cpus_per_task: 4}\n"));
        // 4 x 100M would do for the array's elements, but the stats merge job has one CPU: before, it got -Xmx80m
        assertEquals("job.yaml: slurm.sbatch_args.mem-per-cpu is '100M', which sbatch reads as 100M per CPU (a stage's"
                + " stats merge job has one); a worker needs at least 256M",
                error(ONE_STAGE + "slurm: {mem_per_cpu: null, cpus_per_task: 4, sbatch_args: {mem-per-cpu: 100M}}\n"),
                "with the unit given, no advice to give one");
        assertEquals("job.yaml: slurm.sbatch_args.mem is '100', which sbatch reads as 100M for each array task; a worker"
                + " needs at least 256M. Give the unit: 2G is two gigabytes",
                error(ONE_STAGE + "slurm: {mem_per_cpu: null, sbatch_args: {mem: 100}}\n"));
        assertEquals("512", jobOptions(load(ONE_STAGE + "slurm: {mem_per_cpu: 512}\n")).memPerCpu());
        assertEquals("0", jobOptions(load(ONE_STAGE + "slurm: {mem_per_cpu: null, sbatch_args: {mem: '0', exclusive: ''}}\n"))
                .sbatchArgs().get("mem"), "--mem=0 is all of the node's memory");
        assertEquals("job.yaml:5: slurm: 'array_parallelism' must be from 0 to 2147483647, got -1",
                error(ONE_STAGE + "slurm: {array_parallelism: -1}\n"));
        assertEquals("job.yaml:5: slurm: 'requeue_grace_seconds' must be from 0 to 65535, got -5",
                error(ONE_STAGE + "slurm: {requeue_grace_seconds: -5}\n"));
    }

    /** A stage's slurm: keys over the job's (sbatch_args key by key); a minhash: block's for its four stages. */
    @Test
    void aStagesSlurmKeysGoOverTheJobs() throws IOException {
        String yaml = """
                stages:
                  - name: a
                    steps: [{read_jsonl: {path: x}}]
                  - name: b
                    slurm: {time: '12:00:00', mem_per_cpu: null, sbatch_args: {mem: 64G, comment: nightly}}
                    steps: [{read_jsonl: {path: x}}]
                  - name: dedup
                    slurm: {partition: big}
                    minhash: {input: x, output: y, work_dir: z}
                  - name: c
                    slurm: {partition: null, env_command: null, mem_per_cpu: 8G}
                    steps: [{read_jsonl: {path: x}}]
                slurm: {time: '01:00:00', partition: cpu, env_command: module load java, sbatch_args: {constraint: avx2}}
                """;
        Job job = load(yaml);
        for (Job j : List.of(job, roundTrip(job))) {
            assertEquals("01:00:00", SlurmOptions.of(j, j.stage("a")).time());
            // before, job.json left out a stage's nulls, and read back the stage had the job's partition again
            SlurmOptions c = SlurmOptions.of(j, j.stage("c"));
            assertEquals(Arrays.asList(null, null, "8G"), Arrays.asList(c.partition(), c.envCommand(), c.memPerCpu()));
            SlurmOptions b = SlurmOptions.of(j, j.stage("b"));
            assertEquals(List.of("12:00:00", "cpu"), List.of(b.time(), b.partition()));
            assertEquals(null, b.memPerCpu());
            assertEquals(Map.of("constraint", "avx2", "mem", "64G", "comment", "nightly"), b.sbatchArgs());
            for (String stage : List.of("dedup_signatures", "dedup_buckets", "dedup_cluster", "dedup_filter")) {
                assertEquals("big", SlurmOptions.of(j, j.stage(stage)).partition(), stage);
            }
        }
        assertEquals("job.yaml:5: stages[1] (b).slurm: 'cpus_per_task' must be a positive integer, got 0",
                error(yaml.replace("time: '12:00:00',", "time: '12:00:00', cpus_per_task: 0,")));
        // a stage's memory replaces the job's, in whichever form each gives it (sbatch takes one); before, a stage's
        // mem_per_cpu under a job's sbatch_args {mem: 64G} was refused, with advice that dropped the stage's memory
        String jobMem = yaml.replace("sbatch_args: {constraint: avx2}", "mem_per_cpu: null, sbatch_args: {constraint: avx2, mem: 64G}");
        Job mem = load(jobMem);
        for (Job j : List.of(mem, roundTrip(mem))) {
            SlurmOptions c = SlurmOptions.of(j, j.stage("c"));
            assertEquals("8G", c.memPerCpu());
            assertEquals(Map.of("constraint", "avx2"), c.sbatchArgs());
            assertEquals(Map.of("constraint", "avx2", "mem", "64G"), SlurmOptions.of(j, j.stage("a")).sbatchArgs());
        }
        Job perCpu = load(yaml.replace("slurm: {time: '01:00:00',", "slurm: {time: '01:00:00', mem_per_cpu: 4G,")
                .replace("mem_per_cpu: null, sbatch_args: {mem: 64G", "sbatch_args: {mem: 64G"));
        SlurmOptions b = SlurmOptions.of(perCpu, perCpu.stage("b"));
        assertEquals(null, b.memPerCpu(), "the stage's sbatch_args mem replaces the job's mem_per_cpu");
        assertEquals("job.yaml:3: stages[0] (a).slurm: 'java_home' is set in the job's slurm: block only (one build runs"
                + " every stage)", error(yaml.replace("  - name: a\n", "  - name: a\n    slurm: {java_home: /opt/jdk}\n")));
        // before, java_home stopped the check of the stage's other slurm: keys
        assertEquals("2 problems:\n  job.yaml:3: stages[0] (a).slurm: 'java_home' is set in the job's slurm: block only (one"
                + " build runs every stage)\n  job.yaml:3: stages[0] (a).slurm: 'cpus_per_task' must be a positive integer, got 0",
                error(yaml.replace("  - name: a\n", "  - name: a\n    slurm: {java_home: /opt/jdk, cpus_per_task: 0}\n")));
    }

    /** Five mistakes in one slurm: block, told in one round of validate: before, it took four rounds. */
    @Test
    void everyProblemOfASlurmBlockIsToldAtOnce() throws IOException {
        String said = error(ONE_STAGE + "slurm: {partiton: gpu, mem_per_cpu: 100M, time: '00:01:00',"
                + " sbatch_args: {job-name: foo, time: '01:00:00', '--bad option': 1}}\n");
        List<String> told = List.of(
                "job.yaml:5: slurm: 'mem_per_cpu' is '100M', which sbatch reads as 100M per CPU (a stage's stats merge job has"
                        + " one); a worker needs at least 256M",
                "job.yaml:5: slurm: unknown key 'partiton' (did you mean 'partition'?)",
                "job.yaml:5: slurm.sbatch_args: --time=01:00:00 and time: 00:01:00 are both given; keep one",
                "job.yaml:5: slurm.requeue_grace_seconds: 120 s is not shorter than its time '00:01:00' (60 s)",
                "job.yaml:5: slurm.sbatch_args: --job-name is set by `launcher submit` itself",
                "job.yaml:5: slurm.sbatch_args: 'bad option' is not an sbatch option name");
        List<String> lines = said.lines().toList();
        assertEquals(List.of(told.size() + " problems:"), lines.subList(0, 1), said);
        for (int i = 0; i < told.size(); i++) {
            assertTrue(lines.get(i + 1).startsWith("  " + told.get(i)), "problem " + (i + 1) + ": " + said);
        }
        // a key's own problem is not told again by the sbatch checks with a value the user never wrote
        assertEquals("job.yaml:5: slurm: 'requeue_grace_seconds' must be from 0 to 65535, got 100000",
                error(ONE_STAGE + "slurm: {time: '00:01:00', requeue_grace_seconds: 100000}\n"));
        assertEquals("job.yaml:5: slurm: 'requeue' must be true or false, got 'maybe'",
                error(ONE_STAGE + "slurm: {requeue: maybe, sbatch_args: {signal: 'B:USR1@60'}}\n"));
        // java_home ~/jdk: the script quotes it, so it is expanded here
        assertEquals(System.getProperty("user.home") + "/jdk-25",
                SlurmOptions.ofJob(load(ONE_STAGE + "slurm: {java_home: ~/jdk-25}\n")).javaHome());
    }

}
