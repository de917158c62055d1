package io.sluice.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files one rank of a stage writes (documents, statistics, MinHash signatures and buckets), each
 * noted in the rank's journal before it is created: {@code <logging_dir>/.written/<stage>/00007.files},
 * one absolute path per line. When the rank runs again, the files its earlier run noted are removed
 * first ({@link #removeEarlierRun}), so what it leaves is exactly what this run writes: a rank killed
 * after rolled pieces were renamed into place, or run again after its stage changed (fewer pieces,
 * other metadata values, fewer MinHash buckets), would otherwise leave files a later stage reads as its.
 *
 * <p>The journal sits beside the stage's folder in the logging dir, not in it, so a stage run again after
 * that folder was deleted (as the refusals advise) still finds it; and not in the output folders, which
 * hold the documents alone (datatrove's readers list every file of a folder given without a glob).
 * Only names a rank alone writes are noted: a file another rank of a later run may write under the same
 * name (merge_stats' metric.json, whose folders are shared out by rank) would be removed under its feet.
 */
public final class RankFiles {
    private static final String SUFFIX = ".files";
    private static final Pattern JOURNAL = Pattern.compile("(\\d{5,})\\.files");

    private final Path journal;
    private final Set<Path> noted = new HashSet<>();

    private RankFiles(Path journal) {
        this.journal = journal;
    }

    /** A journal of nothing, for writers run outside a stage (tests, tools). */
    public static RankFiles none() {
        return new RankFiles(null);
    }

    /** The journal of rank {@code rank} of the stage whose folder in the logging dir is {@code stageDir}. */
    public static RankFiles of(Path stageDir, int rank) {
        return new RankFiles(folder(stageDir).resolve(String.format("%05d", rank) + SUFFIX));
    }

    private static Path folder(Path stageDir) {
        Path s = stageDir.toAbsolutePath().normalize();
        return s.resolveSibling(".written").resolve(s.getFileName());
    }

    /** Notes {@code file} before it is created (once per file; a line is appended and closed, not synced). */
    public void willWrite(Path file) throws IOException {
        willWriteAll(List.of(file));
    }

    /** {@link #willWrite} for several files, in one append. */
    public void willWriteAll(Collection<Path> files) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (Path file : files) {
            Path f = file.toAbsolutePath().normalize();
            if (journal != null && noted.add(f)) {
                lines.append(f).append('\n');
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        Files.createDirectories(journal.getParent());
        Files.write(journal, lines.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /**
     * Before rank {@code rank} runs: removes the files its earlier runs noted (and their temporary files),
     * except those {@code read} says the stage reads, then the journal. Returns how many files it removed.
     */
    public static int removeEarlierRun(Path stageDir, int rank, Predicate<Path> read) throws IOException {
        return remove(List.of(of(stageDir, rank).journal), read);
    }

    /** Removes the files and journals of ranks {@code tasks} and up: ranks the stage no longer has. */
    public static int removeRanksFrom(Path stageDir, int tasks, Predicate<Path> read) throws IOException {
        List<Path> dropped = new ArrayList<>();
        for (Path journal : journals(stageDir)) {
            Matcher m = JOURNAL.matcher(journal.getFileName().toString());
            if (m.matches() && Long.parseLong(m.group(1)) >= tasks) {
                dropped.add(journal);
            }
        }
        return remove(dropped, read);
    }

    /** The files rank {@code rank} of the stage noted, present or not. */
    public static List<Path> notedBy(Path stageDir, int rank) throws IOException {
        return read(of(stageDir, rank).journal);
    }

    /** Every file the ranks of the stage noted, present or not. */
    public static List<Path> noted(Path stageDir) throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path journal : journals(stageDir)) {
            all.addAll(read(journal));
        }
        return all;
    }

    private static List<Path> journals(Path stageDir) throws IOException {
        Path folder = folder(stageDir);
        List<Path> journals = new ArrayList<>();
        if (Files.isDirectory(folder)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
                s.forEach(journals::add);
            }
        }
        return journals;
    }

    /** The files the journals noted, their temporary files, then the journals; returns how many files went. */
    private static int remove(List<Path> journals, Predicate<Path> read) throws IOException {
        int removed = 0;
        java.util.Map<Path, Set<String>> namesByFolder = new java.util.HashMap<>();
        for (Path journal : journals) {
            for (Path f : read(journal)) {
                if (read.test(f)) {
                    continue; // the stage now reads what it once wrote: input, not a leftover
                }
                if (Files.isRegularFile(f)) {
                    Files.delete(f);
                    removed++;
                }
                if (f.getParent() != null) {
                    namesByFolder.computeIfAbsent(f.getParent(), k -> new HashSet<>()).add(f.getFileName().toString());
                }
            }
        }
        for (java.util.Map.Entry<Path, Set<String>> e : namesByFolder.entrySet()) {
            removeTemporaries(e.getKey(), e.getValue());
        }
        for (Path journal : journals) {
            Files.deleteIfExists(journal);
        }
        return removed;
    }

    /**
     * A writer's temporary names for a file {@code <name>}: {@code <name>.tmp} ({@link AtomicFile}), and the MinHash
     * signatures' scratch files beside it, {@code <name>.unsorted.tmp} and {@code <name>.run<k>.tmp}, which can be
     * gigabytes. Only these: another writer's file extending the name ({@code 00001.jsonl.gz.tmp} beside a noted
     * {@code 00001.jsonl}) is not ours to remove.
     */
    private static final Pattern TEMPORARY = Pattern.compile("(.+?)(\\.unsorted|\\.run\\d+)?\\.tmp");

    /**
     * The temporary files of the named files in {@code folder}, in one listing of it (once for every rank whose
     * files go). Before, only {@code <name>.tmp} went, and the signatures' scratch files of ranks a changed job
     * no longer has stayed for good.
     */
    private static void removeTemporaries(Path folder, Set<String> names) throws IOException {
        if (!Files.isDirectory(folder)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + AtomicFile.TMP_SUFFIX)) {
            for (Path t : files) {
                String n = t.getFileName().toString();
                Matcher m = TEMPORARY.matcher(n);
                // <name>.tmp of a name ending in .run3 or .unsorted is matched as such first
                if (names.contains(n.substring(0, n.length() - AtomicFile.TMP_SUFFIX.length()))
                        || (m.matches() && names.contains(m.group(1)))) {
                    Files.deleteIfExists(t);
                }
            }
        }
    }

    /** The journal's paths; a last line a kill cut short (no newline) is left out. */
    private static List<Path> read(Path journal) throws IOException {
        List<Path> paths = new ArrayList<>();
        if (!Files.isRegularFile(journal)) {
            return paths;
        }
        String s = Files.readString(journal, StandardCharsets.UTF_8);
        int start = 0;
        for (int nl = s.indexOf('\n'); nl >= 0; start = nl + 1, nl = s.indexOf('\n', start)) {
            String line = s.substring(start, nl);
            if (line.startsWith("/") || (line.length() > 2 && line.charAt(1) == ':')) { // absolute, as written
                paths.add(Path.of(line));
            }
        }
        return paths;
    }
}
