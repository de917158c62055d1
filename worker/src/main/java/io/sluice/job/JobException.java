package io.sluice.job;

import java.util.List;

/**
 * A mistake in a job file or its arguments, found before any work starts. The message is meant to be
 * printed as it is: one line naming the file, the key and what is allowed.
 */
public class JobException extends RuntimeException {
    /** The mistakes this exception tells, one a line after "N problems:" when there are several. */
    private final List<String> problems;

    public JobException(String message) {
        super(message);
        problems = List.of(message);
    }

    private JobException(List<String> problems) {
        super(problems.size() + " problems:\n  " + String.join("\n  ", problems));
        this.problems = problems;
    }

    /** One problem as its own message; several as "N problems:", one a line. A problem found twice is told once. */
    public static JobException of(List<String> problems) {
        List<String> told = problems.stream().distinct().toList();
        return told.size() == 1 ? new JobException(told.getFirst()) : new JobException(told);
    }

    public List<String> problems() {
        return problems;
    }

    public JobException(String message, Throwable cause) {
        super(message, cause);
        problems = List.of(message);
    }
}
