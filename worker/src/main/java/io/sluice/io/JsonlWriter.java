package io.sluice.io;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.doc.Document;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes documents as JSON lines into files named by a template ({@code ${rank}} is the rank as five
 * digits, {@code ${id}} the document's id, any other {@code ${key}} a metadata value, "none" when the
 * document has none, which the {@link KeyMissing} given is told), compressed, optionally rolled over at
 * {@code maxFileSize} uncompressed bytes (files then get datatrove's {@code NNN_} prefix).
 *
 * <p>A document no step modified is copied as its original line (when that line reads back as the same
 * document: see {@code JsonlReader}); others are serialised as
 * {@code {"text", "id", "media", "metadata"}} (datatrove's field order; empty media and metadata are left out).
 * Files appear under their final names only on {@link #commit()}.
 */
public final class JsonlWriter implements Closeable {
    private static final Pattern VAR = Pattern.compile("\\$\\{([^}]+)}");
    /** datatrove's (Python's string.Template) placeholder without braces, which is plain text here. */
    private static final Pattern UNBRACED = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    /** Told of each document written under "none" for want of a metadata key its file name needs. */
    public interface KeyMissing {
        void missing(Document doc, List<String> keys, String fileName);
    }
    /**
     * A float as datatrove's {@code json.dumps} writes it, Python's repr: 0.0005 and 1e-05, 10000000.0 and 1e+16, where
     * Jackson writes Java's 5.0E-4 and 1.0E7 (the same number, other bytes: a stats step's ratios under 0.001 differed
     * in most lines of a long corpus, for anyone comparing outputs or grepping them).
     */
    private static final com.fasterxml.jackson.databind.JsonSerializer<Double> PYTHON_FLOAT =
            new com.fasterxml.jackson.databind.ser.std.StdSerializer<>(Double.class) {
                @Override
                public void serialize(Double value, JsonGenerator g, com.fasterxml.jackson.databind.SerializerProvider p)
                        throws IOException {
                    g.writeNumber(PyJson.floatRepr(value));
                }
            };
    /**
     * An infinite or NaN float is written bare (Infinity, -Infinity, NaN), as datatrove's {@code json.dumps}
     * writes it and Python's json and Sluice's reader read it: Jackson's default, the string "Infinity", turned
     * a number into a string. (Characters beyond the BMP stay escaped as two surrogates: Jackson 2.18's option to
     * write them as UTF-8 also joins a lone high surrogate with the character after it.)
     */
    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .disable(com.fasterxml.jackson.core.json.JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            // a line the reader takes at its deepest nesting is written one level deeper, under "metadata"
            .streamWriteConstraints(com.fasterxml.jackson.core.StreamWriteConstraints.builder()
                    .maxNestingDepth(JsonLineScanner.LIMITS.getMaxNestingDepth() + 1).build())
            .build())
            .registerModule(new com.fasterxml.jackson.databind.module.SimpleModule().addSerializer(Double.class, PYTHON_FLOAT));
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private final Path dir;
    private final String template;
    private final boolean templateUsesMetadata;
    private final Compression compression;
    private final long maxFileSize;
    private final int rank;
    /** Where the rank notes each file before creating it. */
    private final RankFiles files;
    private final KeyMissing keyMissing;
    private final Map<String, OpenFile> open = new LinkedHashMap<>();
    private final Map<String, Integer> rollCounter = new LinkedHashMap<>();
    private final List<Path> committed = new ArrayList<>();
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream(1 << 16);
    private long documents;

    private static final class OpenFile {
        final AtomicFile file;
        final OutputStream out;
        long bytes;

        OpenFile(AtomicFile file, OutputStream out) {
            this.file = file;
            this.out = out;
        }
    }

    /** A writer run outside a stage, which notes its files nowhere. */
    public JsonlWriter(Path dir, String template, Compression compression, long maxFileSize, int rank) {
        this(dir, template, compression, maxFileSize, rank, RankFiles.none(), (doc, keys, fileName) -> { });
    }

    /** @param files the rank's journal, told of each file before it is created */
    public JsonlWriter(Path dir, String template, Compression compression, long maxFileSize, int rank, RankFiles files,
                       KeyMissing keyMissing) {
        this.keyMissing = keyMissing;
        this.files = files;
        this.dir = dir;
        this.compression = compression;
        this.template = template;
        this.templateUsesMetadata = VAR.matcher(template.replace("${rank}", "")).find();
        this.maxFileSize = maxFileSize;
        this.rank = rank;
    }

    /**
     * Why a placeholder of {@code template} can never be filled, or null: {@code ${rank}}, {@code ${id}}
     * and {@code ${key}} for a metadata key, named as it is (dots and all: "warc.id" is a key), are all there
     * is, so {@code ${metadata.source}} (a path into the document) or datatrove's unbraced {@code $source}
     * would name every file with the placeholder's text; a "/" would make folders of metadata values.
     */
    public static String placeholderProblem(String template) {
        Matcher m = VAR.matcher(template);
        while (m.find()) {
            String key = m.group(1);
            if (key.startsWith("metadata.") || key.contains("/") || key.isBlank()) {
                String last = key.substring(key.lastIndexOf('.') + 1).strip();
                return "'${" + key + "}' names no key: a placeholder is ${rank}, ${id} or a metadata key by its own"
                        + " name" + (!last.isEmpty() && !last.contains("/") ? " (write ${" + last + "})" : "");
            }
        }
        Matcher u = UNBRACED.matcher(template);
        return u.find() ? "'$" + u.group(1) + "' needs braces here: ${" + u.group(1) + "}" : null;
    }

    /** The default file name: {@code ${rank}.jsonl} plus the compression's extension. */
    public static String defaultTemplate(Compression c) {
        return "${rank}.jsonl" + c.extension();
    }

    public void write(Document doc) throws IOException {
        String name = fileName(doc);
        OpenFile f = open.get(name);
        if (f == null) {
            try {
                f = openFile(name);
            } catch (IOException | java.nio.file.InvalidPathException e) {
                if (!templateUsesMetadata) {
                    throw e;
                }
                // the name came from this document's metadata (a value too long for a file name, say): say which
                throw new IOException(doc.describe() + ": cannot create '" + name + "', the file output_filename names"
                        + " for it: " + (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                                ? fs.getReason() : e.getMessage()), e);
            }
        }
        int n;
        if (!doc.mustSerialise()) {
            n = doc.originalLineLength();
            f.out.write(doc.originalLineBuffer(), doc.originalLineOffset(), n);
        } else {
            scratch.reset();
            serialize(doc, scratch);
            n = scratch.size();
            scratch.writeTo(f.out);
        }
        f.out.write('\n');
        f.bytes += n + 1;
        documents++;
        if (maxFileSize > 0 && f.bytes >= maxFileSize) {
            closeAndCommit(name);
        }
    }

    public long documents() {
        return documents;
    }

    /** Closes every open file and renames it into place; returns all files this writer produced. */
    public List<Path> commit() throws IOException {
        for (String name : new ArrayList<>(open.keySet())) {
            closeAndCommit(name);
        }
        // the folder exists even when no document came: a later stage reading it then sees an output
        // that holds nothing, not a missing one (or one deleted since)
        Files.createDirectories(dir);
        return committed;
    }

    /** Discards files not yet committed. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (OpenFile f : open.values()) {
            try {
                f.file.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }

    private void closeAndCommit(String name) throws IOException {
        OpenFile f = open.remove(name);
        f.out.close(); // ends the compressed frame, then CommitOnClose renames the file into place
        committed.add(f.file.target());
    }

    private OpenFile openFile(String name) throws IOException {
        String fileName = name;
        if (maxFileSize > 0) {
            fileName = rolled(name, rollCounter.merge(name, 1, Integer::sum) - 1);
        }
        files.willWrite(dir.resolve(fileName));
        AtomicFile file = AtomicFile.create(dir.resolve(fileName));
        OutputStream out = compression.compress(new CommitOnClose(file));
        OpenFile f = new OpenFile(file, out);
        open.put(name, f);
        return f;
    }

    /** The name of the {@code index}th file rolled over from {@code name}: datatrove's {@code NNN_} prefix. */
    private static String rolled(String name, int index) {
        int slash = name.lastIndexOf('/');
        return name.substring(0, slash + 1) + String.format("%03d_", index) + name.substring(slash + 1);
    }

    /**
     * The name of one file of {@code template}, the first of rank 0 with every metadata key "x", for checks
     * that ask where an output's files go.
     */
    public static String sampleName(String template, boolean rolling) {
        String name = VAR.matcher(template.replace("${rank}", String.format("%05d", 0))).replaceAll("x");
        return rolling ? rolled(name, 0) : name;
    }

    /**
     * The names files of {@code template} get: {@code ${rank}} as five digits or more (group "rank", if the
     * template has it), another key as any name, and the {@code NNN_} prefix of rolled files when
     * {@code rolling}. The reverse of how this writer names them, kept beside it.
     */
    public static Pattern namePattern(String template, boolean rolling) {
        int fileName = template.lastIndexOf('/') + 1;
        StringBuilder re = new StringBuilder();
        boolean rankSeen = appendNamePattern(re, template.substring(0, fileName), false);
        if (rolling) {
            re.append("(?:\\d{3,}_)?");
        }
        appendNamePattern(re, template.substring(fileName), rankSeen);
        return Pattern.compile(re.toString());
    }

    /** Appends the pattern of a piece of a template; whether ${rank} has been seen, with it. */
    private static boolean appendNamePattern(StringBuilder re, String part, boolean rankSeen) {
        Matcher m = VAR.matcher(part);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(part.substring(at, m.start())));
            if (m.group(1).equals("rank")) {
                re.append(rankSeen ? "\\d{5,}" : "(?<rank>\\d{5,})");
                rankSeen = true;
            } else {
                re.append("[^/]*");
            }
            at = m.end();
        }
        re.append(Pattern.quote(part.substring(at)));
        return rankSeen;
    }

    private String fileName(Document doc) {
        String base = template.replace("${rank}", String.format("%05d", rank));
        if (!templateUsesMetadata) {
            return base;
        }
        Matcher m = VAR.matcher(base);
        StringBuilder sb = new StringBuilder();
        List<String> missing = null;
        while (m.find()) {
            String key = m.group(1);
            // a key given as null is there, as str(None) in datatrove's name; one not there is "none" (datatrove fails)
            boolean present = key.equals("id") || doc.metadata().containsKey(key);
            if (!present) {
                missing = missing == null ? new ArrayList<>() : missing;
                missing.add(key);
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(pathSegment(present
                    ? PyJson.str(key.equals("id") ? doc.id() : doc.metadata().get(key)) : null)));
        }
        m.appendTail(sb);
        if (missing != null) {
            keyMissing.missing(doc, missing, sb.toString());
        }
        return sb.toString();
    }

    /**
     * A metadata value, as Python's str() writes it ({@link PyJson#str}), as one piece of a file name: "none" for a
     * missing key, path separators replaced, and "", "." and ".." prefixed with "_", so a value never leaves the
     * output folder or names it.
     */
    static String pathSegment(String value) {
        String s = value == null ? "none" : value.replace('/', '_').replace('\\', '_').replace('\0', '_');
        return s.isEmpty() || s.equals(".") || s.equals("..") ? "_" + s : s;
    }

    /** Serialises a document as datatrove's JsonlWriter does: text, id, then metadata when not empty. */
    public static void serialize(Document doc, OutputStream out) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeStringField("text", doc.text());
            g.writeStringField("id", doc.id());
            Object media = doc.media();
            if (media != null && !(media instanceof java.util.Collection<?> c && c.isEmpty())) {
                g.writeFieldName("media"); // datatrove's field, kept as it was read
                MAPPER.writeValue(g, media);
            }
            Map<String, Object> md = doc.metadata();
            if (!md.isEmpty()) {
                g.writeFieldName("metadata");
                MAPPER.writeValue(g, md);
            }
            g.writeEndObject();
        }
    }

    /**
     * Closing the compressor must finish the compressed stream and then publish the file; the
     * AtomicFile only renames on commit, so this wrapper turns "close" into "commit".
     */
    private static final class CommitOnClose extends OutputStream {
        private final AtomicFile file;

        CommitOnClose(AtomicFile file) {
            this.file = file;
        }

        @Override
        public void write(int b) throws IOException {
            file.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            file.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            file.flush();
        }

        @Override
        public void close() throws IOException {
            file.commit();
        }
    }
}
