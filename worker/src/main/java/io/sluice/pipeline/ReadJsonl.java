package io.sluice.pipeline;

import io.sluice.doc.Document;
import io.sluice.io.AtomicFile;
import io.sluice.io.Compression;
import io.sluice.io.InputPiece;
import io.sluice.io.JsonlReader;
import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code read_jsonl}: JSON lines from a folder (or one file), plain or compressed. Keys: {@code path},
 * {@code glob} (matched against the path relative to {@code path}; default every file),
 * {@code recursive} (default true), {@code text_key}, {@code id_key}, {@code default_metadata},
 * {@code limit} and {@code skip} (documents per rank), {@code on_error} ({@code fail} or {@code skip}),
 * {@code split_size} (default 256M; plain files above it feed several ranks).
 */
public final class ReadJsonl implements DocumentSource {
    /** What the last {@link #listFiles()} left out, for the stage's note (listed once, not walked again for it). */
    private List<String> leftOut = List.of();
    private final Path root;
    private final Path singleFile;
    private final String glob;
    private final boolean recursive;
    private final long limit;
    private final long skip;
    private final long splitSize;
    /** The glob's matcher, null without a glob (every file). */
    private final PathMatcher matcher;
    /**
     * The glob with some of its "**{@literal /}" parts left out ("sub/**{@literal /}*.jsonl": "sub/*.jsonl"): as in
     * fsspec's glob, a "**" part also stands for no folder, where Java's glob wants at least one.
     */
    private final List<PathMatcher> withoutFolders;
    private final JsonlReader.Options options;
    private StepContext ctx;

    public ReadJsonl(StepArgs args) {
        Path path = args.path("path");
        glob = args.string("glob", null);
        recursive = args.bool("recursive", true);
        String textKey = args.string("text_key", "text");
        String idKey = args.string("id_key", "id");
        Map<String, Object> defaults = args.map("default_metadata");
        args.refuseNull(StepArgs.NUMBER_NOT_NULL, "limit", "skip"); // before, null read every document
        limit = args.readOn(() -> atLeast(args, "limit", -1, "-1 (no limit) or a number of documents"), -1L);
        skip = args.readOn(() -> atLeast(args, "skip", 0, "a number of documents"), 0L);
        splitSize = args.size("split_size", 256L << 20);
        String onError = args.choice("on_error", "fail", "fail", "skip");
        options = new JsonlReader.Options(textKey, idKey, defaults,
                onError.equals("skip") ? JsonlReader.OnError.SKIP : JsonlReader.OnError.FAIL);
        if (Files.isRegularFile(path)) {
            root = path.toAbsolutePath().getParent();
            singleFile = path.getFileName();
        } else {
            root = path.toAbsolutePath();
            singleFile = null;
        }
        PathMatcher globMatcher = null;
        if (glob != null) {
            try {
                globMatcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            } catch (IllegalArgumentException e) {
                throw args.error("glob", "is not a valid glob: " + e.getMessage());
            }
        }
        matcher = globMatcher;
        List<PathMatcher> variants = new ArrayList<>();
        if (glob != null) {
            for (String g : withoutDoubleStarParts(glob)) {
                variants.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
            }
        }
        withoutFolders = variants;
    }

    /** The non-empty globs {@code glob} becomes with one or more of its whole "**{@literal /}" parts taken out. */
    static Set<String> withoutDoubleStarParts(String glob) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = glob.indexOf("**/"); i >= 0; i = glob.indexOf("**/", i + 1)) {
            if (i == 0 || glob.charAt(i - 1) == '/') {
                String shorter = glob.substring(0, i) + glob.substring(i + 3);
                if (!shorter.isEmpty() && out.add(shorter)) {
                    out.addAll(withoutDoubleStarParts(shorter));
                }
            }
        }
        return out;
    }

    /** datatrove's reader reads nothing for a limit below -1 (and skips none for a negative skip): a slip either way. */
    private static long atLeast(StepArgs args, String key, long least, String expected) {
        long v = args.integer(key, least);
        if (v < least) {
            throw args.error(key, "must be " + expected + ", got " + v);
        }
        return v;
    }

    /** Whether a damaged or misnamed file is counted and skipped (on_error: skip) rather than a failure. */
    public boolean skipsBadFiles() {
        return options.onError() == JsonlReader.OnError.SKIP;
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public long splitSize() {
        return splitSize;
    }

    /** Whether {@code recursive: true} is what takes files in subfolders (a glob without "**" reaches them either way). */
    public boolean readsSubfoldersByRecursion() {
        return recursive && (glob == null || glob.contains("**"));
    }

    @Override
    public List<String> listFiles() throws IOException {
        if (singleFile != null) {
            return List.of(singleFile.toString());
        }
        if (!Files.isDirectory(root)) {
            throw new JobException("input path " + root + " does not exist");
        }
        List<String> files = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        int deeperByName = walk(files, leftOut);
        this.leftOut = leftOut;
        if (files.isEmpty()) {
            throw new JobException("no file in " + root + (glob == null ? "" : " matches glob '" + glob + "'")
                    + (recursive || glob != null && !glob.contains("**") ? "" : " (recursive: false)")
                    + (leftOut.isEmpty() ? "" : " but " + leftOutNote(leftOut))
                    + (deeperByName == 0 ? "" : "; " + deeperByName + " file(s) in its subfolders have such a name:"
                            + " glob '**/" + glob + "' reads them"));
        }
        return files;
    }

    /** "2 file(s) that are hidden or unfinished outputs (*.tmp), which are not read: .a.jsonl, ..." */
    public static String leftOutNote(List<String> leftOut) {
        return leftOut.size() + " file(s) that are hidden or unfinished outputs (*.tmp), which are not read: "
                + leftOut.getFirst() + (leftOut.size() > 1 ? ", ..." : "");
    }

    @Override
    public List<String> leftOutFiles() {
        return leftOut;
    }

    /**
     * Lists the files the glob matches into {@code files} (sorted), those of them it leaves out into
     * {@code leftOut}: hidden ones, and unfinished outputs of another step ({@code *.tmp}). Returns, when none
     * matches, the files in subfolders whose name alone matches, which a glob not starting with a double star misses.
     */
    private int walk(List<String> files, List<String> leftOut) throws IOException {
        // a folder given as a symbolic link (common for shared data on clusters) is listed where it points:
        // walking the link itself, which is not followed, found nothing
        Path listed = root.toRealPath();
        // subfolders that are links are walked too, as fsspec's find does; a matching link to nothing is an
        // error, as opening it is in datatrove (before, both were left out without a word)
        List<Path> dangling = new ArrayList<>();
        List<Path[]> links = new ArrayList<>();
        visit(listed, walkDepth(), links, (p, rel, regular) -> {
            if (!matches(rel)) {
                return;
            }
            String name = p.getFileName().toString();
            boolean hidden = name.startsWith(".") || name.endsWith(AtomicFile.TMP_SUFFIX);
            if (!regular && !hidden) {
                dangling.add(p);
            } else {
                (hidden ? leftOut : files).add(rel.toString().replace('\\', '/'));
            }
        });
        linkedFolders = links;
        if (!dangling.isEmpty()) {
            throw new JobException("input " + dangling.getFirst() + " is a symbolic link to "
                    + Files.readSymbolicLink(dangling.getFirst()) + ", which does not exist"
                    + (dangling.size() > 1 ? " (and " + (dangling.size() - 1) + " more such link(s))" : "")
                    + "; mend or remove the link, or give a glob that leaves it out");
        }
        files.sort(null);
        leftOut.sort(null);
        int[] deeperByName = {0};
        if (files.isEmpty() && matcher != null && recursive) {
            // only for the message: the glob's depth left these out of the walk above
            visit(listed, Integer.MAX_VALUE, new ArrayList<>(), (p, rel, regular) -> {
                if (rel.getNameCount() > 1 && matcher.matches(rel.getFileName())) {
                    deeperByName[0]++;
                }
            });
        }
        return deeperByName[0];
    }

    private interface FileFound {
        void found(Path file, Path relative, boolean regular);
    }

    /**
     * Walks {@code listed} down to {@code maxDepth}, following links, and gives each regular file and each link to
     * nothing; notes the subfolders that are links (link relative to the folder, and where it points). A link
     * back up the tree is not walked again: its files are found where they are.
     */
    private static void visit(Path listed, int maxDepth, List<Path[]> links, FileFound found) throws IOException {
        Files.walkFileTree(listed, EnumSet.of(FileVisitOption.FOLLOW_LINKS), maxDepth, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
                    throws IOException {
                if (!dir.equals(listed) && Files.isSymbolicLink(dir)) {
                    links.add(new Path[] {listed.relativize(dir), dir.toRealPath()});
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                    throws IOException {
                if (attrs.isSymbolicLink()) {
                    // a link here points nowhere (it is followed otherwise), or nowhere yet: a folder the job makes
                    // (its logs, an output) would be read through it once there
                    links.add(new Path[] {listed.relativize(file),
                            DocumentSource.realPathOf(file.resolveSibling(Files.readSymbolicLink(file)))});
                }
                if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
                    found.found(file, listed.relativize(file), attrs.isRegularFile());
                }
                return FileVisitResult.CONTINUE; // a folder below the depth, a socket, a device
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof FileSystemLoopException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
    }

    /**
     * How deep a file the listing can find lies, as datatrove's listing through fsspec: without a glob, any depth,
     * or the folder's own files for {@code recursive: false}. A glob without "**" matches paths of as many parts as
     * it has, whatever {@code recursive} says (fsspec's maxdepth only bounds "**"), so the walk need not go
     * further (through a large linked tree the glob never matches, say). With "**" and {@code recursive: false},
     * the "**" stands for no folder at all: "a/**&#47;*.jsonl" reads a/x.jsonl, not a/b/x.jsonl.
     */
    private int walkDepth() {
        if (glob == null) {
            return recursive ? Integer.MAX_VALUE : 1;
        }
        int stars = glob.indexOf("**");
        if (stars >= 0) {
            return recursive ? Integer.MAX_VALUE : slashes(glob.substring(0, stars)) + 1;
        }
        return glob.contains("{") ? Integer.MAX_VALUE : slashes(glob) + 1; // alternatives of different depths
    }

    private static int slashes(String s) {
        return (int) s.chars().filter(c -> c == '/').count();
    }

    /** The subfolders that are links the last listing walked: link relative to the folder read, and its target. */
    private List<Path[]> linkedFolders = List.of();

    @Override
    public boolean lists(Path file) {
        Path f = DocumentSource.realPathOf(file);
        Path folder = DocumentSource.realPathOf(root);
        if (singleFile != null) {
            return f.equals(folder.resolve(singleFile));
        }
        if (f.startsWith(folder) && !f.equals(folder)) {
            return listsRelative(folder.relativize(f));
        }
        // through a subfolder that is a link: the job's own output or logs there would be read back
        for (Path[] link : linkedFolders) {
            if (f.startsWith(link[1]) && !f.equals(link[1]) && listsRelative(link[0].resolve(link[1].relativize(f)))) {
                return true;
            }
        }
        return false;
    }

    private boolean listsRelative(Path rel) {
        return rel.getNameCount() <= walkDepth() && matches(rel);
    }

    /** Whether a file at {@code rel} (relative to the folder read) matches the glob. */
    private boolean matches(Path rel) {
        if (matcher == null || matcher.matches(rel)) {
            return true;
        }
        for (PathMatcher m : withoutFolders) {
            if (m.matches(rel)) {
                return true;
            }
        }
        return false;
    }

    /** True when a file may be cut into byte ranges (plain text only). */
    public static boolean splittable(String file) {
        return Compression.fromFileName(file) == Compression.NONE;
    }

    @Override
    public void open(StepContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void process(Document doc, DocumentSink next) throws IOException {
        next.accept(doc);
    }

    /** The skipped lines of one kind a rank logs; the stats count them all. */
    public static final int LOGGED_SKIPS = 100;

    @Override
    public void read(List<InputPiece> pieces, DocumentSink out) throws IOException {
        JsonlReader reader = new JsonlReader(options);
        StepStats stats = ctx.stats();
        long[] seen = {0};
        String[] firstMissingText = {null};
        JsonlReader.Handler handler = new JsonlReader.Handler() {
            @Override
            public boolean document(Document doc) throws IOException {
                long n = seen[0]++;
                if (n < skip) {
                    return true;
                }
                if (limit >= 0 && n - skip >= limit) {
                    return false;
                }
                stats.increment("documents");
                ctx.progress().documents.increment();
                ctx.progress().bytes.add(doc.originalLineLength() + 1);
                out.accept(doc);
                return true;
            }

            @Override
            public void skipped(String reason, String message) {
                if (reason.equals("missing_text") && firstMissingText[0] == null) {
                    firstMissingText[0] = message;
                }
                stats.increment("skipped_" + reason);
                // a wrong text_key skips every line: the first ones logged say why, the rest are counted
                long n = stats.get("skipped_" + reason);
                if (n <= LOGGED_SKIPS) {
                    ctx.log().warn("skipped line: " + message);
                }
                if (n == LOGGED_SKIPS + 1) {
                    ctx.log().warn("further lines skipped as " + reason + " in this rank are counted (skipped_" + reason
                            + " in its stats), not logged");
                }
            }

            @Override
            public void blankLine() {
                stats.increment("blank_lines"); // datatrove warns of each, as JSON it cannot parse
            }
        };
        // present even when nothing is read, so that every rank's stats have the same counters
        stats.add("documents", 0);
        stats.add("files", 0);
        stats.add("bytes", 0);
        for (InputPiece piece : pieces) {
            if (limit >= 0 && seen[0] - skip >= limit) {
                break;
            }
            long bytes;
            try {
                bytes = reader.read(root, piece, handler);
            } catch (JsonlReader.BadInputException e) {
                if (options.onError() == JsonlReader.OnError.SKIP && e.getCause() != null) {
                    stats.increment("skipped_corrupt_files");
                    stats.increment("files");
                    stats.add("bytes", Math.max(0, e.bytesRead()));
                    ctx.log().error("skipped the rest of a file: " + e.getMessage());
                    continue;
                }
                throw e;
            }
            stats.add("bytes", bytes);
            stats.increment("files");
        }
        if (seen[0] == 0 && firstMissingText[0] != null && options.onError() == JsonlReader.OnError.FAIL) {
            // datatrove skips lines without the text key one by one; when no line has it, text_key is wrong, and
            // the job would end "done" with nothing written (on Slurm with nothing said at all)
            throw new IOException("no line this rank read has the text key '" + options.textKey() + "' ("
                    + stats.get("skipped_missing_text") + " without it; the first: " + firstMissingText[0]
                    + "): set text_key to the key that holds the text, or on_error: skip to go on without them");
        }
    }

    @Override
    public String stageProblem(int tasks, boolean documents) {
        return null; // it is the reader
    }
}
