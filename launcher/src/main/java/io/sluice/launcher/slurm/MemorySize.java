package io.sluice.launcher.slurm;

import io.sluice.job.JobException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Slurm memory sizes ({@code 512M}, {@code 2G}, {@code 2000} = megabytes) as megabytes. */
public final class MemorySize {

    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGT]?)B?");

    private MemorySize() {
    }

    /** Megabytes in a Slurm size; a plain number is megabytes, as for {@code sbatch --mem-per-cpu}. */
    public static long megabytes(String size) {
        Matcher m = SIZE.matcher(size.trim().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new JobException("slurm.mem_per_cpu: '" + size + "' is not a Slurm memory size like 2G, 512M or 2000");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "K" -> Math.max(1, n / 1024);
            case "G" -> n * 1024;
            case "T" -> n * 1024 * 1024;
            default -> n;
        };
    }

    /**
     * The worker JVM's heap: 80% of what the array task gets ({@code cpus x mem_per_cpu}), leaving the
     * rest for the JVM itself, direct buffers of the decompressors and the shell.
     */
    public static long heapMegabytes(int cpusPerTask, String memPerCpu) {
        return Math.max(64, megabytes(memPerCpu) * cpusPerTask * 8 / 10);
    }
}
