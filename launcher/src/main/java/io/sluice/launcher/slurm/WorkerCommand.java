package io.sluice.launcher.slurm;

import io.sluice.job.Job;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a compute node starts the worker: which {@code java}, with which class path and main class.
 * Compute nodes are assumed to see the same file system as the machine that submits.
 *
 * @param java      the java executable
 * @param classPath absolute class path entries (the shaded {@code sluice.jar} when run from it)
 * @param mainClass the worker's entry point
 */
public record WorkerCommand(String java, List<String> classPath, String mainClass) {

    public static final String WORKER_MAIN = "io.sluice.exec.WorkerMain";

    /**
     * JVM flags every worker needs: the Vector API kernels and zstd-jni's native access; and the
     * throughput collector, since a rank is a batch job: measured on the filter chain, G1's concurrent
     * work and barriers cost about 5% of the time and its peak RSS was twice the parallel collector's.
     * And on-stack replacement ten times later than the JVM's default: the hot loops run once per
     * document, thousands of times a second, so a loop compiled mid-document (one compilation per loop
     * head, each redone after an uncommon trap) is thrown away as soon as the whole method is compiled.
     * Measured on the benchmark corpus: C2 time in the signature stage 5.1-5.2 -> 3.9-4.1 CPU-s, and
     * wall time, four alternating pairs, 15.6 -> 14.6 s (signatures), 24.3 -> 23.5 s (statistics),
     * 23.7 -> 23.1 s (the filter chain). And C2 inlines an already compiled method only when its code
     * is under 1000 bytes (the default is 2500): the text steps' hot methods are large, each inlined
     * copy made every compilation unit bigger, and an uncommon trap anywhere in one recompiled all of
     * it. C2 time in the filter chain 12.9 -> 8.7 CPU-s of 42; wall time, three alternating pairs,
     * 21.9 -> 20.5 s (filter chain), 23.8 -> 22.3 s with 1500 and 1000 (statistics), 14.9 -> 14.7 s
     * (signatures); 500 was slower.
     *
     * <p>The list is the resource {@code worker-jvm.flags}, one flag per line, which {@code bin/launcher}
     * reads too, so a local run and a Slurm rank start the same JVM.
     */
    public static final List<String> JVM_FLAGS = readFlags();

    private static List<String> readFlags() {
        try (InputStream in = WorkerCommand.class.getResourceAsStream("worker-jvm.flags")) {
            if (in == null) {
                throw new IllegalStateException("worker-jvm.flags is missing from the launcher's class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(line -> !line.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The worker as this launcher would run it: {@code slurm.java_home}'s java if the job names one,
     * else the java running the launcher; the launcher's own class path.
     */
    public static WorkerCommand sameAsLauncher(Job job, String mainClass) {
        String javaHome = job.slurm().javaHome();
        if (javaHome == null || javaHome.isBlank()) {
            javaHome = System.getProperty("java.home");
        }
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                classPath.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return new WorkerCommand(Path.of(javaHome, "bin", "java").toString(), classPath, mainClass);
    }

    /** The command words for one block of ranks; {@code firstRank} and {@code ranks} are shell expressions. */
    List<String> words(Path jobJson, String stage, long heapMegabytes, int workers) {
        List<String> w = new ArrayList<>();
        w.add(java);
        w.addAll(JVM_FLAGS);
        if (heapMegabytes > 0) {
            w.add("-Xmx" + heapMegabytes + "m");
        }
        w.add("-cp");
        w.add(String.join(File.pathSeparator, classPath));
        w.add(mainClass);
        w.add("--job");
        w.add(jobJson.toAbsolutePath().toString());
        w.add("--stage");
        w.add(stage);
        w.add("--workers");
        w.add(Integer.toString(workers));
        return w;
    }
}
