package io.sluice.job;

/**
 * A mistake in a job file or its arguments, found before any work starts. The message is meant to be
 * printed as it is: one line naming the file, the key and what is allowed.
 */
public class JobException extends RuntimeException {
    public JobException(String message) {
        super(message);
    }

    public JobException(String message, Throwable cause) {
        super(message, cause);
    }
}
