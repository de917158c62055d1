package io.sluice.io;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Failures as a sentence for the console and the task log. */
public final class FileErrors {
    private FileErrors() {
    }

    /**
     * What went wrong, naming the file. java.nio's exceptions carry only the path as their message, so a rank
     * whose input had gone or could not be read failed with "rank 0: /data/in/a.jsonl" and nothing more.
     */
    public static String describe(Throwable e) {
        if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            // a folder walk's failure: its message was "java.nio.file.AccessDeniedException: /data/in/locked"
            return describe(u.getCause());
        }
        if (e instanceof FileSystemException f && f.getFile() != null) {
            String what = switch (f) {
                case NoSuchFileException x -> "no such file or directory";
                case AccessDeniedException x -> "permission denied";
                case FileAlreadyExistsException x -> "already exists";
                case NotDirectoryException x -> "not a directory";
                case DirectoryNotEmptyException x -> "directory not empty";
                default -> f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
            };
            return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + what;
        }
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            return j.getOriginalMessage(); // without the path of keys and arrays to the value, 24 KB on deep metadata
        }
        return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    }
}
