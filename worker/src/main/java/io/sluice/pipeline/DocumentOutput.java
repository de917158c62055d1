package io.sluice.pipeline;

import io.sluice.io.AtomicFile;
import io.sluice.io.Compression;
import io.sluice.io.JsonlWriter;
import io.sluice.io.RankFiles;
import io.sluice.job.StepArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a step writes documents (write_jsonl's files, a filter's exclusion_output): a folder, a file
 * name template, a compression and a roll-over size. The template is checked here, once, so that no
 * rank can write outside the folder: it is relative, without "..", and its extension agrees with the
 * compression (datatrove's rule: a name without the compression's extension gets it appended).
 */
public record DocumentOutput(Path dir, String template, Compression compression, long maxFileSize) {

    /** Steps that write documents, so that the job's checks can see every output before a rank runs. */
    public interface Writer {
        List<DocumentOutput> documentOutputs();
    }

    /**
     * Reads {@code path}, {@code compression}, {@code output_filename} and, if {@code rolling}, {@code max_file_size}.
     * Without {@code compression}, an {@code output_filename} ending in .gz or .zst says which (datatrove's
     * {@code "${rank}.jsonl.gz"} under its gzip default was refused against Sluice's zstd default), else zstd;
     * {@code compression: null} is none, as datatrove's {@code compression=None} (it was read as the default).
     */
    public static DocumentOutput of(StepArgs args, boolean rolling) {
        Path dir = args.path("path");
        Compression compression;
        if (args.raw().containsKey("compression") && args.rawValue("compression") == null) {
            compression = Compression.NONE;
        } else if (!args.raw().containsKey("compression") && args.raw().get("output_filename") instanceof String named
                && (Compression.fromFileName(named) == Compression.GZIP || Compression.fromFileName(named) == Compression.ZSTD)) {
            compression = Compression.fromFileName(named); // the two it writes; .xz or .bz2 is refused below
            args.readElsewhere("compression"); // still among the allowed keys a typo is told
        } else {
            compression = Compression.fromConfig(args.choice("compression", "zstd", "zstd", "gzip", "none"));
        }
        String template = args.string("output_filename", JsonlWriter.defaultTemplate(compression));
        long maxFileSize = rolling ? args.size("max_file_size", 0) : 0;
        return new DocumentOutput(dir, checkedTemplate(args, template, compression), compression, maxFileSize);
    }

    /** The defaults for a folder given alone. */
    public static DocumentOutput inFolder(Path dir) {
        return new DocumentOutput(dir, JsonlWriter.defaultTemplate(Compression.ZSTD), Compression.ZSTD, 0);
    }

    private static String checkedTemplate(StepArgs args, String template, Compression compression) {
        String t = template.replace('\\', '/');
        if (t.isBlank() || t.startsWith("/") || t.endsWith("/") || List.of(t.split("/")).contains("..")) {
            throw args.error("output_filename", "must be a file name inside the output folder (relative, without"
                    + " '..'), not '" + template + "'");
        }
        String placeholder = JsonlWriter.placeholderProblem(t);
        if (placeholder != null) {
            throw args.error("output_filename", "'" + template + "': " + placeholder);
        }
        Compression named = Compression.fromFileName(t);
        if (named == Compression.NONE && compression != Compression.NONE) {
            return t + compression.extension();
        }
        if (named != compression) {
            throw args.error("output_filename", "'" + template + "' ends in " + named.extension()
                    + " but compression is " + compression.name().toLowerCase(Locale.ROOT));
        }
        return t;
    }

    /** True when every rank writes files of its own (the template holds {@code ${rank}}). */
    public boolean perRank() {
        return template.contains("${rank}");
    }

    /**
     * Files already in the folder that ranks {@code 0 .. tasks - 1} would not write: another job's, or
     * those of ranks an earlier run had and this one has not. A later stage reading the folder would
     * read them as well. Relative paths, sorted; temporary files of running writers are left out.
     */
    public List<String> strayFiles(int tasks) throws IOException {
        return filesWhere(m -> !m.matches() || (perRank() && Integer.parseInt(m.group("rank")) >= tasks));
    }

    /**
     * The files of this output that the ranks of the stage whose folder in the logging dir is {@code stageDir}
     * noted as written ({@link RankFiles}), present or not.
     */
    public List<Path> notedFiles(Path stageDir) throws IOException {
        Pattern ours = JsonlWriter.namePattern(template, maxFileSize > 0);
        Path folder = dir.toAbsolutePath().normalize();
        return RankFiles.noted(stageDir).stream()
                .filter(f -> f.startsWith(folder) && ours.matcher(folder.relativize(f).toString().replace('\\', '/')).matches())
                .toList();
    }

    /** Files in the folder named as this output names its files (relative paths, sorted). */
    public List<String> ownFiles() throws IOException {
        return filesWhere(Matcher::matches);
    }

    /** The folder's finished files (temporary and hidden ones left out) whose name-pattern match passes {@code test}. */
    private List<String> filesWhere(java.util.function.Predicate<Matcher> test) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        Pattern ours = JsonlWriter.namePattern(template, maxFileSize > 0);
        List<String> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                String name = dir.relativize(f).toString().replace('\\', '/');
                if (name.endsWith(AtomicFile.TMP_SUFFIX) || f.getFileName().toString().startsWith(".")) {
                    continue;
                }
                if (test.test(ours.matcher(name))) {
                    found.add(name);
                }
            }
        }
        found.sort(null);
        return found;
    }

    /** Whether the file names hold a metadata key besides the rank ({@code ${language}/${rank}.jsonl.zst}). */
    public boolean namedByMetadata() {
        return template.replace("${rank}", "").contains("${");
    }

    /** One file this output writes (see {@link JsonlWriter#sampleName}), to ask whether a reader would list it. */
    public Path sampleFile() {
        return dir.resolve(JsonlWriter.sampleName(template, maxFileSize > 0));
    }

    /**
     * A writer for the rank of {@code ctx}. A document without a metadata key the file name needs is written
     * under "none" (as before, and as the docs say) but never silently: each is counted as
     * {@code filename_key_missing} in the step's stats, and the first of the rank is logged by its id.
     */
    public JsonlWriter open(StepContext ctx) {
        return new JsonlWriter(dir, template, compression, maxFileSize, ctx.rank(), ctx.files(), (doc, keys, fileName) -> {
            if (ctx.stats().get(KEY_MISSING) == 0) {
                ctx.log().warn("document '" + doc.id() + "' has no metadata " + (keys.size() == 1 ? "key '" : "keys '")
                        + String.join("', '", keys) + "' for output_filename '" + template + "' of " + dir
                        + ": written to " + fileName + "; the stats count such documents as " + KEY_MISSING
                        + " (only the first is logged)");
            }
            ctx.stats().increment(KEY_MISSING);
        });
    }

    private static final String KEY_MISSING = "filename_key_missing";
}
