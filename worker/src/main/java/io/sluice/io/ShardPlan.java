package io.sluice.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which pieces of input each rank of a stage reads. Files are taken in sorted order and dealt
 * round-robin over the ranks (datatrove's {@code files[rank::world_size]}, so a later stage over the
 * same files sees the same documents in the same order); a plain file larger than {@code splitSize}
 * first becomes several byte-range pieces, so one huge file can feed many ranks.
 *
 * <p>Computed once and kept in {@code <logging_dir>/<stage>/shard_plan.json}: a re-run reads the
 * same plan, so its ranks see the same inputs even if files were added to the folder meanwhile.
 */
public record ShardPlan(String root, int worldSize, long splitSize, List<FileEntry> files,
                        List<List<InputPiece>> ranks) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public record FileEntry(String path, long size) {
    }

    /** A planned file whose size is not the one planned; {@code now} is -1 when the file is gone. */
    public record ChangedFile(String path, long planned, long now) {
        public String describe(Path root) {
            return root.resolve(path) + (now < 0 ? " is gone" : " is " + now + " bytes now") + "; it was " + planned
                    + " bytes when read";
        }
    }

    /**
     * The planned files that are gone or of another size under {@code root}. A re-run whose ranks read a changed
     * file by the old plan's byte ranges cut lines in two or read some twice, and completed ranks hold the old
     * content: neither may go on without a word. Size, not mtime: a copy that keeps the bytes but not the time is
     * the same input.
     */
    public List<ChangedFile> changedFiles(Path root) throws IOException {
        List<ChangedFile> changed = new ArrayList<>();
        for (FileEntry f : files) {
            long now;
            try {
                now = Files.size(root.resolve(f.path()));
            } catch (java.nio.file.NoSuchFileException e) {
                now = -1;
            }
            if (now != f.size()) {
                changed.add(new ChangedFile(f.path(), f.size(), now));
            }
        }
        return changed;
    }

    /** This plan with the sizes of some of its files as given (file to size), the pieces unchanged. */
    public ShardPlan withSizes(java.util.Map<String, Long> sizes) {
        List<FileEntry> updated = files.stream()
                .map(f -> sizes.containsKey(f.path()) ? new FileEntry(f.path(), sizes.get(f.path())) : f).toList();
        return new ShardPlan(root, worldSize, splitSize, updated, ranks);
    }

    /** The ranks that read some of {@code file}, in order. */
    public List<Integer> ranksReading(String file) {
        List<Integer> readers = new ArrayList<>();
        for (int r = 0; r < ranks.size(); r++) {
            if (ranks.get(r).stream().anyMatch(piece -> piece.file().equals(file))) {
                readers.add(r);
            }
        }
        return readers;
    }

    /** Whether the plan cuts {@code file} into byte ranges (by the size it had). */
    public boolean cuts(String file) {
        return ranks.stream().flatMap(List::stream).anyMatch(piece -> piece.file().equals(file) && !piece.wholeFile());
    }

    /** Decides whether a file may be cut at line boundaries (plain JSONL only). */
    public interface Splittable {
        boolean test(String file);
    }

    public static ShardPlan compute(Path root, List<String> sortedFiles, int worldSize, long splitSize,
                                    Splittable splittable) throws IOException {
        List<FileEntry> files = new ArrayList<>();
        List<InputPiece> pieces = new ArrayList<>();
        for (String f : sortedFiles) {
            long size = Files.size(root.resolve(f));
            files.add(new FileEntry(f, size));
            if (splitSize > 0 && size > splitSize && splittable.test(f)) {
                for (long start = 0; start < size; start += splitSize) {
                    pieces.add(new InputPiece(f, start, Math.min(size, start + splitSize)));
                }
            } else {
                pieces.add(new InputPiece(f, 0, -1));
            }
        }
        List<List<InputPiece>> ranks = new ArrayList<>();
        for (int r = 0; r < worldSize; r++) {
            ranks.add(new ArrayList<>());
        }
        for (int i = 0; i < pieces.size(); i++) {
            ranks.get(i % worldSize).add(pieces.get(i));
        }
        return new ShardPlan(root.toString(), worldSize, splitSize, files, ranks);
    }

    public List<InputPiece> piecesFor(int rank) {
        return rank < ranks.size() ? ranks.get(rank) : List.of();
    }

    public void write(Path file) throws IOException {
        AtomicFile.writeShared(file, JSON.writeValueAsBytes(this));
    }

    public static ShardPlan read(Path file) throws IOException {
        try {
            return JSON.readValue(file.toFile(), ShardPlan.class);
        } catch (IOException e) {
            throw new IOException(file + ": unreadable shard plan (" + e.getMessage().lines().findFirst().orElse("")
                    + "); delete it to plan again", e);
        }
    }
}
