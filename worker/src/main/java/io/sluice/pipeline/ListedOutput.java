package io.sluice.pipeline;

import java.nio.file.Path;

/**
 * A step whose output folder the next stage takes whole: it lists the folder and reads every file of a kind
 * there (MinHash signatures, .dups, .remove), so a file another run left in it is read as this run's.
 */
public interface ListedOutput {
    /** The folder the next stage lists. */
    Path listedFolder();

    /** Whether a file in it ({@code relative}, '/'-separated) is of a kind the next stage reads. */
    boolean isListed(String relative);

    /** A step that lists a folder a {@link ListedOutput} of an earlier stage fills: what it is made from. */
    interface Reader {
        /** The folder it lists. */
        Path input();
    }
}
