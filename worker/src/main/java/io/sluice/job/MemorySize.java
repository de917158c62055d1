package io.sluice.job;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Memory sizes as sbatch writes them ({@code 512M}, {@code 2G}, {@code 2000} = megabytes), in megabytes. */
public final class MemorySize {

    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGT]?)B?");

    private MemorySize() {
    }

    /**
     * Megabytes in a size; a plain number is megabytes, as for {@code sbatch --mem-per-cpu}. {@code where}
     * names the setting in the error.
     */
    public static long megabytes(String size, String where) {
        Matcher m = SIZE.matcher(size.trim().toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new JobException(where + ": '" + size + "' is not a Slurm memory size like 2G, 512M or 2000"
                    + " (whole numbers only)");
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
     * The worker JVM's heap: 80% of the memory an array task gets, leaving the rest for the JVM itself,
     * direct buffers of the decompressors and the shell.
     */
    public static long heapMegabytes(long taskMegabytes) {
        return Math.max(64, taskMegabytes * 8 / 10);
    }
}
