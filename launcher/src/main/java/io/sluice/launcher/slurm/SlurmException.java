package io.sluice.launcher.slurm;

/** A Slurm command failed or answered something the launcher cannot read; the message says which and why. */
public class SlurmException extends RuntimeException {
    public SlurmException(String message) {
        super(message);
    }
}
