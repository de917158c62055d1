package io.sluice.pipeline;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** The log of one rank: {@code <logging_dir>/<stage>/logs/task_NNNNN.log}, timestamped lines. */
public final class TaskLog implements Closeable {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private final Writer out;
    private final PrintStream echo;
    private final String prefix;

    private TaskLog(Writer out, PrintStream echo, String prefix) {
        this.out = out;
        this.echo = echo;
        this.prefix = prefix;
    }

    /** Appends to the file (a re-run of a rank keeps the earlier attempt's lines above). */
    public static TaskLog toFile(Path file, int rank) throws IOException {
        Files.createDirectories(file.getParent());
        Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return new TaskLog(w, null, "rank " + rank);
    }

    /** A log that only prints (tests, one-off tools). */
    public static TaskLog toStream(PrintStream echo) {
        return new TaskLog(null, echo, "");
    }

    public void info(String msg) {
        write("INFO", msg);
    }

    public void warn(String msg) {
        write("WARN", msg);
    }

    public void error(String msg) {
        write("ERROR", msg);
    }

    private synchronized void write(String level, String msg) {
        String line = LocalDateTime.now().format(TS) + " " + level + " " + (prefix.isEmpty() ? "" : prefix + ": ") + msg;
        try {
            if (out != null) {
                out.write(line);
                out.write('\n');
                out.flush();
            }
        } catch (IOException e) {
            // a full disk must not hide the real error; the line still goes to the echo stream below
        }
        if (echo != null) {
            echo.println(line);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
