package io.sluice.launcher.slurm;

import io.sluice.io.AtomicFile;
import io.sluice.job.Job;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

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
     * <p>Besides these, {@code bin/launcher} and the sbatch scripts ask for transparent huge pages where the kernel
     * gives them on request ("madvise", decided on each node): fewer page faults as the heap grows, and fewer TLB
     * misses in word_stats' 2.5 MB table of words. The statistics benchmark, four alternating pairs on an AMD EPYC:
     * 25.0-27.6 s (46.0-48.6 CPU-s) without, 24.0-26.3 s (45.1-46.4 CPU-s) with; each pair faster with them.
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

    /** {@code slurm.java_home: PATH}: the {@code java} that the PATH holds on the node, after {@code env_command}. */
    public static final String JAVA_ON_PATH = "PATH";

    /**
     * The worker as this launcher would run it: {@code slurm.java_home}'s java if the job names one ("java",
     * looked up on the node's PATH, for {@link #JAVA_ON_PATH}), else the java running the launcher; the
     * launcher's own class path.
     */
    public static WorkerCommand sameAsLauncher(Job job, String mainClass) {
        String javaHome = SlurmOptions.ofJob(job).javaHome();
        if (javaHome == null || javaHome.isBlank()) {
            javaHome = System.getProperty("java.home");
        }
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                classPath.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        String java = javaHome.equals(JAVA_ON_PATH) ? "java" : Path.of(javaHome, "bin", "java").toString();
        return new WorkerCommand(java, classPath, mainClass);
    }

    /**
     * This worker with the class path's jar files in {@code builds}, one folder per content
     * ({@code <builds>/<SHA-256, 16 hex digits>/<file name>}, reused when there): array elements that start
     * hours after the submit run the build that was submitted, not what a later {@code mvn package} left in
     * its place, and running ones do not read a jar rewritten under them. Folders on the class path (a
     * development checkout's classes) stay as they are. With {@code copy} false the copies are only named,
     * for a dry run.
     */
    public WorkerCommand pinnedIn(Path builds, boolean copy) throws IOException {
        List<String> pinned = new ArrayList<>();
        for (String entry : classPath) {
            Path file = Path.of(entry);
            try {
                pinned.add(Files.isRegularFile(file) ? pin(file, builds, copy).toString() : entry);
            } catch (IOException e) {
                throw new IOException("cannot copy " + file + " to " + builds + " for the array jobs to run: " + e, e);
            }
        }
        return new WorkerCommand(java, pinned, mainClass);
    }

    /**
     * Removes the folders of {@code builds} that no script in the logging dir names ({@code
     * <logging_dir>/<stage>/slurm/*.slurm}, stages no longer in the job file included): a script on disk can
     * still start, queued or resubmitted by hand. Returns what could not be removed, for a warning: a
     * logging dir shared by a team may hold builds another user copied.
     */
    public static List<String> removeUnusedBuilds(Path builds, Path loggingDir) throws IOException {
        if (!Files.isDirectory(builds)) {
            return List.of();
        }
        StringBuilder scripts = new StringBuilder();
        try (Stream<Path> stages = Files.list(loggingDir)) {
            for (Path slurmDir : stages.map(d -> d.resolve("slurm")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.list(slurmDir)) {
                    for (Path script : files.filter(f -> f.getFileName().toString().endsWith(".slurm")).toList()) {
                        scripts.append(Files.readString(script));
                    }
                }
            }
        }
        List<String> problems = new ArrayList<>();
        try (Stream<Path> folders = Files.list(builds)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                if (scripts.indexOf(builds.getFileName() + "/" + folder.getFileName() + "/") >= 0) {
                    continue;
                }
                try (Stream<Path> tree = Files.walk(folder)) {
                    for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                } catch (IOException e) {
                    problems.add(folder + " (" + e + ")");
                }
            }
        }
        return problems;
    }

    private static Path pin(Path jar, Path builds, boolean copy) throws IOException {
        Path target = builds.resolve(sha256(jar)).resolve(jar.getFileName());
        if (!copy || Files.isRegularFile(target)) {
            return target;
        }
        // Copied and hashed in one read, and placed by the copy's hash: a jar rebuilt meanwhile is pinned
        // as what was copied.
        Files.createDirectories(builds);
        // a name of its own, created with the umask's permissions (a temporary file's 0600 would keep a jar in a
        // shared logging dir from the rest of the team)
        Path tmp = builds.resolve(jar.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + AtomicFile.TMP_SUFFIX);
        try {
            MessageDigest digest = newSha256();
            try (InputStream in = new DigestInputStream(Files.newInputStream(jar), digest);
                 FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                in.transferTo(Channels.newOutputStream(out));
                out.force(true);
            }
            target = builds.resolve(hex(digest)).resolve(jar.getFileName());
            if (!Files.isRegularFile(target)) {
                Files.createDirectories(target.getParent());
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest digest = newSha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return hex(digest);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has it
        }
    }

    private static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }

    /** The command words for one block of ranks; {@code firstRank} and {@code ranks} are shell expressions. */
    List<String> words(Path jobJson, String stage, long heapMegabytes, int workers) {
        List<String> w = new ArrayList<>();
        w.add(java);
        w.addAll(JVM_FLAGS);
        // the CPUs the element was given: where Slurm does not confine a job to its CPUs, the JVM counted the
        // node's, and started GC and compiler threads for all of them
        w.add("-XX:ActiveProcessorCount=" + workers);
        // the same share of the element's memory when its size is unknown (the JVM's default is a quarter)
        w.add(heapMegabytes > 0 ? "-Xmx" + heapMegabytes + "m" : "-XX:MaxRAMPercentage=80");
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
