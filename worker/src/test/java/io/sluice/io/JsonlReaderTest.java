package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonlReaderTest {
    @TempDir
    Path dir;

    static final String CONTENT = "{\"id\":\"a\",\"text\":\"first doc\",\"metadata\":{\"url\":\"http://x.org/1\"},\"lang\":\"en\"}\n"
            + "\n"
            + "{\"text\":\"no id here\",\"score\":0.5}\n"
            + "{\"id\":7,\"text\":\"caf\\u00e9 \u00fcber \uD83D\uDE00\"}";

    record Read(List<Document> docs, List<String> skipped) {
    }

    Read read(Path file, JsonlReader.OnError onError, Map<String, Object> defaults) throws IOException {
        Read r = new Read(new ArrayList<>(), new ArrayList<>());
        readInto(r, file, onError, defaults);
        return r;
    }

    /** Reads {@code file} into {@code into}, which keeps what came before an exception. */
    void readInto(Read into, Path file, JsonlReader.OnError onError, Map<String, Object> defaults) throws IOException {
        readInto(into, new InputPiece(dir.relativize(file).toString(), 0, -1), onError, defaults);
    }

    /** Reads one piece (of a file in the test's folder) into {@code into}. */
    void readInto(Read into, InputPiece piece, JsonlReader.OnError onError, Map<String, Object> defaults) throws IOException {
        List<Document> docs = into.docs();
        List<String> skipped = into.skipped();
        new JsonlReader(new JsonlReader.Options("text", "id", defaults, onError)).read(dir, piece, new JsonlReader.Handler() {
            @Override
            public boolean document(Document doc) {
                docs.add(doc.detach());
                return true;
            }

            @Override
            public void skipped(String reason, String message) {
                skipped.add(reason + ": " + message);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"in.jsonl", "in.jsonl.gz", "in.jsonl.zst", "in.jsonl.bz2", "in.jsonl.xz"})
    void readsEveryCompressionAlike(String name) throws IOException {
        Path f = TestFiles.write(dir.resolve(name), CONTENT);
        List<Document> docs = read(f, JsonlReader.OnError.FAIL, null).docs();
        assertEquals(3, docs.size());
        assertEquals("a", docs.get(0).id());
        assertEquals("first doc", docs.get(0).text());
        // datatrove's default id is <file>/<line index>, counting the blank line
        assertEquals(name + "/2", docs.get(1).id());
        assertEquals("7", docs.get(2).id());
        assertEquals("café über \uD83D\uDE00", docs.get(2).text());
    }

    @Test
    void foldsTopLevelKeysIntoMetadataAndAppliesDefaults() throws IOException {
        Path f = TestFiles.write(dir.resolve("m.jsonl"), CONTENT);
        Map<String, Object> defaults = new LinkedHashMap<>(Map.of("source", "crawl", "lang", "xx"));
        List<Document> docs = read(f, JsonlReader.OnError.FAIL, defaults).docs();
        Map<String, Object> md = docs.get(0).metadata();
        assertEquals("http://x.org/1", md.get("url"));
        assertEquals("en", md.get("lang"), "the line's own key wins over default_metadata");
        assertEquals("crawl", md.get("source"));
        assertEquals(0.5, docs.get(1).metadata().get("score"));
        assertTrue(docs.get(0).mustSerialise(), "with default_metadata it is serialised, so the defaults reach the output");
        assertFalse(read(f, JsonlReader.OnError.FAIL, null).docs().get(0).mustSerialise(),
                "a line read with the default options and an id is copied as it is");
    }

    /** Python's json decodes field names: "t\\u0065xt" is the text (before: "no 'text' key", the rank failed). */
    @Test
    void fieldNamesWithEscapesAreReadDecoded() throws IOException {
        Path f = TestFiles.write(dir.resolve("esc.jsonl"),
                "{\"t\\u0065xt\":\"hello\",\"\\u0069d\":\"esc-id\",\"m\\u0065dia\":[],\"k\\u00e9\":1}\n");
        Document d = read(f, JsonlReader.OnError.FAIL, null).docs().get(0);
        assertEquals("hello", d.text());
        assertEquals("esc-id", d.id());
        assertEquals(Map.of("k\u00e9", 1), d.metadata());
    }

    /**
     * NaN and the infinities, as Python's json.dumps (datatrove's writer) writes them: read, and written back
     * bare. Before, such a datatrove file was "malformed", and a float read as 1e400 was written as the string
     * "Infinity".
     */
    @Test
    void pythonsNonFiniteFloatsAreReadAndWrittenAsPythonDoes() throws IOException {
        Path f = TestFiles.write(dir.resolve("nan.jsonl"), "{\"text\":\"a\",\"metadata\":{\"s\": NaN, \"i\": Infinity,"
                + " \"n\": -Infinity, \"big\": 1e400}}\n");
        Document d = read(f, JsonlReader.OnError.FAIL, null).docs().get(0);
        assertTrue(Double.isNaN((Double) d.metadata().get("s")));
        assertEquals(Double.NEGATIVE_INFINITY, d.metadata().get("n"));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        JsonlWriter.serialize(d, out);
        assertEquals("{\"text\":\"a\",\"id\":\"nan.jsonl/0\",\"metadata\":{\"s\":NaN,\"i\":Infinity,\"n\":-Infinity,"
                + "\"big\":Infinity}}", out.toString(StandardCharsets.UTF_8));
        for (String notPython : List.of("+Infinity", "nan", "Inf", "-NaN")) {
            Files.writeString(f, "{\"text\":\"a\",\"m\":" + notPython + "}\n");
            assertEquals(1, read(f, JsonlReader.OnError.SKIP, null).skipped().size(), notPython);
        }
    }

    /**
     * A garbled line in a compressed file may be damage to the file (gzip checks its CRC only at the end), and
     * zstd-jni names bytes after the last frame "No error detected": both messages now say what to check.
     */
    @Test
    void damageToACompressedFileIsNamedAsSuch() throws IOException {
        Path gz = dir.resolve("g.jsonl.gz");
        try (OutputStream out = Compression.GZIP.compress(Files.newOutputStream(gz))) {
            out.write("{\"text\":\"ok\"}\n{\"text\": \"broken\n".getBytes(StandardCharsets.UTF_8));
        }
        IOException e = assertThrows(IOException.class, () -> read(gz, JsonlReader.OnError.FAIL, null));
        assertEquals("g.jsonl.gz:2 (byte 30): malformed JSON: unterminated string (or the compressed file is damaged:"
                + " `gzip -t` checks it)", e.getMessage());

        Path zst = dir.resolve("z.jsonl.zst");
        try (OutputStream out = Compression.ZSTD.compress(Files.newOutputStream(zst))) {
            out.write("{\"text\":\"ok\"}\n".getBytes(StandardCharsets.UTF_8));
        }
        Files.write(zst, "garbage!".getBytes(StandardCharsets.US_ASCII), java.nio.file.StandardOpenOption.APPEND);
        e = assertThrows(IOException.class, () -> read(zst, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().endsWith("): bytes that are not a zstd frame, or a frame whose checksum does not match"
                + " (`zstd -t` says which)"), e.getMessage());
    }

    @Test
    void malformedLineFailsWithFileLineAndOffset() throws IOException {
        Path f = TestFiles.write(dir.resolve("bad.jsonl"), "{\"text\":\"ok\"}\n{\"text\": \"broken\n{\"text\":\"ok\"}\n");
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        // line 2 starts at byte 14; the string that never ends runs to the end of the line (byte 30)
        assertEquals("bad.jsonl:2 (byte 30): malformed JSON: unterminated string", e.getMessage());
    }

    /**
     * A '\r' not before '\n' ends a line, as in Python's universal newlines, with which datatrove opens a file: old Mac
     * line ends give a document per line (the file was one malformed line), and the line numbers, default ids and
     * messages count those lines. "\r\n" ends one line, as before.
     */
    @Test
    void aCarriageReturnAloneEndsALineAsInPython() throws IOException {
        Path f = TestFiles.write(dir.resolve("mac.jsonl"), "{\"text\":\"a\"}\r{\"text\":\"b\"}\r\r\n{\"text\":\"c\"}\r"
                + " \r{\"text\":\"d\",\"id\":\"x\"}");
        Read r = read(f, JsonlReader.OnError.FAIL, null);
        assertEquals(List.of("a", "b", "c", "d"), r.docs().stream().map(Document::text).toList());
        // lines: a, b, "" (then "\r\n"), c, " ", d
        assertEquals(List.of("mac.jsonl/0", "mac.jsonl/1", "mac.jsonl/3", "x"), r.docs().stream().map(Document::id).toList());
        // "\r\n" across two reads into the reader's buffer (1 MiB) is one line end, not a '\r' and then a blank line
        String first = "{\"text\":\"" + "y".repeat((1 << 20) - 1 - "{\"text\":\"\"}".length()) + "\"}";
        Files.writeString(f, first + "\r\n{\"text\":\"z\"}\r\n");
        r = read(f, JsonlReader.OnError.FAIL, null);
        assertEquals(List.of("mac.jsonl/0", "mac.jsonl/1"), r.docs().stream().map(Document::id).toList());
        Files.writeString(f, first + "\r{\"text\":\"z\"}\r");
        r = read(f, JsonlReader.OnError.FAIL, null);
        assertEquals(List.of("mac.jsonl/0", "mac.jsonl/1"), r.docs().stream().map(Document::id).toList());
        Files.writeString(f, "{\"text\":\"a\"}\r{\"text\": \"b\r\n");
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertEquals("mac.jsonl:2 (byte 24): malformed JSON: unterminated string", e.getMessage());
        // a '\r' between a line's tokens is a line end too: Python reads two broken lines, skipped here with on_error: skip
        Files.writeString(f, "{\"text\":\r\"a\"}\n{\"text\":\"b\"}\n");
        r = read(f, JsonlReader.OnError.SKIP, null);
        assertEquals(List.of("b"), r.docs().stream().map(Document::text).toList());
        assertEquals(2, r.skipped().size(), r.skipped().toString());
        assertEquals("mac.jsonl/2", r.docs().getFirst().id());
    }

    /** A line without the text key is skipped and counted even with on_error: fail, as datatrove skips it (it failed the rank). */
    @Test
    void missingTextKeyIsSkippedAsDatatroveDoes() throws IOException {
        Path f = TestFiles.write(dir.resolve("notext.jsonl"), "{\"text\":\"ok\"}\n{\"content\":\"x\"}\n");
        Read r = read(f, JsonlReader.OnError.FAIL, null);
        assertEquals(List.of("ok"), r.docs().stream().map(Document::text).toList());
        assertEquals(List.of("missing_text: notext.jsonl:2 (byte 14): no 'text' key, skipped as datatrove does (is text_key"
                + " right?)"), r.skipped());
    }

    @Test
    void invalidUtf8FailsWithPosition() throws IOException {
        Path f = dir.resolve("latin1.jsonl");
        byte[] good = "{\"text\":\"ok\"}\n".getBytes();
        byte[] bad = {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', 'c', 'a', 'f', (byte) 0xe9, '"', '}', '\n'};
        try (OutputStream o = Files.newOutputStream(f)) {
            o.write(good);
            o.write(bad);
        }
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        // 0xe9 (Latin-1 'é') at byte 26 announces a two-byte sequence; byte 27 is the closing quote
        assertEquals("latin1.jsonl:2 (byte 27): invalid UTF-8 continuation byte 0x22", e.getMessage());
    }

    @Test
    void skipModeCountsAndReportsEachBadLine() throws IOException {
        Path f = TestFiles.write(dir.resolve("mixed.jsonl"),
                "{\"text\":\"one\"}\nnot json\n{\"x\":1}\n{\"text\":\"\"}\n{\"text\":\"two\"}\n");
        Read r = read(f, JsonlReader.OnError.SKIP, null);
        assertEquals(List.of("one", "two"), r.docs().stream().map(Document::text).toList());
        assertEquals(3, r.skipped().size(), r.skipped().toString());
        assertTrue(r.skipped().get(0).startsWith("malformed: mixed.jsonl:2"), r.skipped().get(0));
        assertTrue(r.skipped().get(1).startsWith("missing_text: mixed.jsonl:3"), r.skipped().get(1));
        assertTrue(r.skipped().get(2).startsWith("empty_text: mixed.jsonl:4"), r.skipped().get(2));
    }

    /** datatrove skips a text Python reads as false ({@code if not text}) as empty; any other non-string fails. */
    @Test
    void aTextThatPythonReadsAsFalseIsSkippedAsEmpty() throws IOException {
        Path f = TestFiles.write(dir.resolve("falsy.jsonl"), """
                {"text":0}
                {"text":false}
                {"text":[ ]}
                {"text":{}}
                {"text":-0.0e3}
                {"text":null}
                {"text":"kept"}
                """);
        Read r = read(f, JsonlReader.OnError.FAIL, null);
        assertEquals(List.of("kept"), r.docs().stream().map(Document::text).toList());
        assertEquals(6, r.skipped().size(), r.skipped().toString());
        assertTrue(r.skipped().stream().allMatch(s -> s.startsWith("empty_text: falsy.jsonl:")), r.skipped().toString());
        for (String text : List.of("1", "true", "[0]", "{\"a\":1}")) {
            Path g = TestFiles.write(dir.resolve("truthy.jsonl"), "{\"text\":" + text + "}\n");
            IOException e = assertThrows(IOException.class, () -> read(g, JsonlReader.OnError.FAIL, null));
            assertEquals("truthy.jsonl:1 (byte 0): 'text' is not a string", e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"t.jsonl.gz", "t.jsonl.zst"})
    void truncatedStreamFailsNamingFileAndOffset(String name) throws IOException {
        Path f = TestFiles.write(dir.resolve(name), numberedDocs(2000));
        byte[] all = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(all, all.length / 2));
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().startsWith(name + ": corrupt or truncated"), e.getMessage());
        assertTrue(e.getMessage().contains("near compressed byte"), e.getMessage());
    }

    @Test
    void corruptGzipFailsAndSkipModeStillFails() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            sb.append(TestFiles.doc("d" + i, "text " + i));
        }
        Path f = TestFiles.write(dir.resolve("c.jsonl.gz"), sb.toString());
        byte[] all = Files.readAllBytes(f);
        for (int i = 40; i < 80; i++) {
            all[i] ^= 0x5a;
        }
        Files.write(f, all);
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().startsWith("c.jsonl.gz: corrupt or truncated gzip stream"), e.getMessage());
    }

    @Test
    void wrongMagicBytesAreReported() throws IOException {
        Path f = dir.resolve("plain-but-named.jsonl.zst");
        Files.writeString(f, "{\"text\":\"x\"}\n");
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().contains("not a zstd file"), e.getMessage());
        // the other way round: before, "gz-but-named.jsonl:1 (byte 0): malformed JSON: line is not a JSON object"
        Path g = TestFiles.write(dir.resolve("gz.jsonl.gz"), "{\"text\":\"x\"}\n");
        Path named = Files.move(g, dir.resolve("gz-but-named.jsonl"));
        e = assertThrows(IOException.class, () -> read(named, JsonlReader.OnError.FAIL, null));
        assertEquals("gz-but-named.jsonl: the first bytes are gzip's, but the name has no .gz: compression is chosen by"
                + " the file name, so rename it to end in .gz", e.getMessage());
    }

    /** With every kind of line end: '\n', "\r\n" and a lone '\r' (a range may start between '\r' and '\n'). */
    @Test
    void byteRangesCoverEveryLineExactlyOnce() throws IOException {
        StringBuilder sb = new StringBuilder();
        String[] ends = {"\n", "\r\n", "\r"};
        for (int i = 0; i < 300; i++) {
            sb.append(TestFiles.doc("d" + i, "x".repeat(1 + i % 37)).replace("\n", ends[i % 3]));
        }
        Path f = TestFiles.write(dir.resolve("big.jsonl"), sb.toString());
        long size = Files.size(f);
        for (long split : new long[] {1, 7, 100, 1000, 4096, size - 1, size, size + 5}) {
            List<String> ids = new ArrayList<>();
            JsonlReader reader = new JsonlReader(new JsonlReader.Options("text", "id", null, JsonlReader.OnError.FAIL));
            for (long start = 0; start < size; start += split) {
                reader.read(dir, new InputPiece("big.jsonl", start, Math.min(size, start + split)), new JsonlReader.Handler() {
                    @Override
                    public boolean document(Document doc) {
                        ids.add(doc.id());
                        return true;
                    }

                    @Override
                    public void skipped(String reason, String message) {
                        throw new AssertionError(message);
                    }
                });
            }
            assertEquals(300, ids.size(), "split " + split);
            for (int i = 0; i < 300; i++) {
                assertEquals("d" + i, ids.get(i), "split " + split);
            }
        }
    }

    /** Twenty documents in two compressed members or frames, "m1-0".."m1-9" then "m2-0".."m2-9". */
    private static byte[][] twoParts(Compression c) throws IOException {
        byte[][] parts = new byte[2][];
        for (int m = 0; m < 2; m++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 10; i++) {
                sb.append(TestFiles.doc("m" + (m + 1) + "-" + i, "words of document " + i));
            }
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (OutputStream out = c.compress(bytes)) {
                out.write(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            parts[m] = bytes.toByteArray();
        }
        return parts;
    }

    private static byte[] concat(byte[] a, byte[] b, int bLength) {
        byte[] all = Arrays.copyOf(a, a.length + bLength);
        System.arraycopy(b, 0, all, a.length, bLength);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "zstd"})
    void everyMemberOrFrameIsReadAndATruncatedLastOneFails(String compression) throws IOException {
        Compression c = Compression.fromConfig(compression);
        byte[][] parts = twoParts(c);
        Path whole = dir.resolve("whole.jsonl" + c.extension());
        Files.write(whole, concat(parts[0], parts[1], parts[1].length));
        assertEquals(20, read(whole, JsonlReader.OnError.FAIL, null).docs().size());
        // the second member or frame cut short, in the same read as the end of the first: before, the
        // first ten documents came out and the file ended quietly
        for (int cut : new int[] {5, parts[1].length / 2, parts[1].length - 1}) {
            Path f = dir.resolve("cut" + cut + ".jsonl" + c.extension());
            Files.write(f, concat(parts[0], parts[1], cut));
            IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null), "cut " + cut);
            assertTrue(e.getMessage().startsWith(f.getFileName() + ": corrupt or truncated " + compression + " stream"),
                    e.getMessage());
        }
    }

    @Test
    void bytesAfterTheLastGzipMemberFail() throws IOException {
        byte[][] parts = twoParts(Compression.GZIP);
        Path f = dir.resolve("junk.jsonl.gz");
        byte[] junk = "JUNK".repeat(9).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Files.write(f, concat(parts[0], junk, junk.length));
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().startsWith("junk.jsonl.gz: corrupt or truncated gzip stream"), e.getMessage());
    }

    @Test
    void aDamagedHeaderNamesTheFileAndIsSkippedLikeOtherDamage() throws IOException {
        byte[][] parts = twoParts(Compression.GZIP);
        Path f = dir.resolve("header.jsonl.gz");
        Files.write(f, Arrays.copyOf(parts[0], 6));
        JsonlReader.BadInputException e = assertThrows(JsonlReader.BadInputException.class,
                () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().startsWith("header.jsonl.gz: corrupt or truncated gzip stream near compressed byte"),
                e.getMessage());
        assertTrue(e.getCause() != null, "a damaged file, which on_error: skip skips");
    }

    @Test
    void aTruncatedGzipFileIsReadUpToTheDamage() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            sb.append("{\"id\":\"").append(i).append("\",\"text\":\"The quick brown fox jumps over the lazy dog.\"}\n");
        }
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            out.write(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        byte[] truncated = java.util.Arrays.copyOf(gz.toByteArray(), gz.size() - 30);
        Path f = dir.resolve("t.jsonl.gz");
        Files.write(f, truncated);
        // what any gzip reader can get out of the bytes that are there: the whole lines of a raw inflate
        java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        inflater.setInput(truncated, 10, truncated.length - 10);
        byte[] plain = new byte[sb.length()];
        int n = inflater.inflate(plain);
        long wholeLines = new String(plain, 0, n, java.nio.charset.StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count();
        assertTrue(wholeLines > 250, "the damage is near the end: " + wholeLines);

        Read r = new Read(new ArrayList<>(), new ArrayList<>());
        IOException e = assertThrows(IOException.class, () -> readInto(r, f, JsonlReader.OnError.SKIP, null));
        List<Document> docs = r.docs();
        // before, none came before the error: the decompressor threw away what it had inflated into a buffer
        // it meant to fill, and on_error: skip counted a file with nothing read
        assertEquals(wholeLines, docs.size());
        assertTrue(e.getMessage().startsWith("t.jsonl.gz: corrupt or truncated gzip stream near compressed byte "
                + truncated.length + " (after line " + wholeLines), e.getMessage());
    }

    @Test
    void aUtf8ByteOrderMarkAtTheStartIsNotPartOfTheFirstLine() throws IOException {
        Path f = dir.resolve("bom.jsonl");
        Files.write(f, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                CONTENT.getBytes(java.nio.charset.StandardCharsets.UTF_8), CONTENT.getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
        List<Document> docs = read(f, JsonlReader.OnError.FAIL, null).docs();
        assertEquals(3, docs.size());
        assertEquals("first doc", docs.get(0).text());
        // its bytes count in what the reader says it read (the step's "bytes"): they were left out
        long read = new JsonlReader(new JsonlReader.Options("text", "id", null, JsonlReader.OnError.FAIL)).read(dir,
                new InputPiece("bom.jsonl", 0, -1), new JsonlReader.Handler() {
                    @Override
                    public boolean document(Document doc) {
                        return true;
                    }

                    @Override
                    public void skipped(String reason, String message) {
                    }
                });
        assertEquals(Files.size(f), read);
    }

    @Test
    void nestingBeyondTheParsersLimitIsAMalformedLineWithItsPosition() throws IOException {
        int depth = com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();
        String ok = "{\"text\":\"a\",\"m\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}\n";
        String deep = "{\"text\":\"b\",\"m\":" + "[".repeat(depth) + "]".repeat(depth) + "}\n";
        Path f = dir.resolve("deep.jsonl");
        Files.writeString(f, ok + deep);
        Read r = read(f, JsonlReader.OnError.SKIP, null);
        assertEquals(1, r.docs().size());
        assertTrue(r.docs().get(0).metadata().containsKey("m"), "the deepest accepted line parses");
        assertEquals(1, r.skipped().size());
        assertTrue(r.skipped().get(0).startsWith("malformed: deep.jsonl:2 (byte " + (ok.length() + "{\"text\":\"b\",\"m\":".length() + depth - 1)
                + "): malformed JSON: "
                + "objects and arrays nested deeper than " + depth), r.skipped().get(0));
    }

    /** datatrove fails on metadata that is not an object (it merges it with the line's other keys); null is none. */
    @Test
    void metadataThatIsNotAnObjectIsAMalformedLine() throws IOException {
        Path f = dir.resolve("meta.jsonl");
        String bad = "{\"id\":\"x\",\"text\":\"a\",\"metadata\": \"oops\"}\n";
        // a key given twice counts as its last value, as Python's json reads it: before, the first refused the line
        String twice = "{\"text\":\"c\",\"metadata\":[1],\"metadata\":{\"a\":1},\"id\":\"t\"}\n";
        String lastBad = "{\"text\":\"d\",\"metadata\":{\"a\":1},\"metadata\":2,\"id\":\"u\"}\n";
        String none = "{\"id\":\"n\",\"text\":\"b\",\"metadata\":null,\"k\":1}\n";
        Files.writeString(f, bad + none + twice + lastBad);
        Read r = read(f, JsonlReader.OnError.SKIP, null);
        assertEquals(List.of("malformed: meta.jsonl:1 (byte " + bad.indexOf("\"oops") + "): malformed JSON: 'metadata' is not an object",
                "malformed: meta.jsonl:4 (byte " + (bad.length() + none.length() + twice.length() + lastBad.indexOf(":2,") + 1)
                        + "): malformed JSON: 'metadata' is not an object"),
                r.skipped(), "before, it became metadata.metadata = 'oops'");
        assertEquals(List.of("n", "t"), r.docs().stream().map(Document::id).toList());
        assertEquals(Map.of("k", 1), r.docs().get(0).metadata());
        assertEquals(Map.of("a", 1), r.docs().get(1).metadata());
    }

    @Test
    void aBadValueDeepInsideTheMetadataIsAMalformedLine() throws IOException {
        Path f = dir.resolve("meta.jsonl");
        String good = "{\"id\":\"g\",\"text\":\"a\",\"metadata\":{\"n\":[1, -0.5e3, {\"k\": [true, null]}]}}\n";
        String bad = "{\"id\":\"x\",\"text\":\"a\",\"metadata\":{\"n\":[1, 1.2.3]}}\n";
        Files.writeString(f, good + bad);
        Read r = read(f, JsonlReader.OnError.SKIP, null);
        assertEquals(List.of("g"), r.docs().stream().map(Document::id).toList());
        // before, the scanner counted brackets only; the parser failed later, when a step read the metadata,
        // and failed the rank whatever on_error said
        assertEquals(List.of("malformed: meta.jsonl:2 (byte " + (good.length() + bad.indexOf("1.2.3")) + "): malformed JSON: malformed number"),
                r.skipped());
        for (String v : List.of("01", "-", "1.", ".5", "+1", "1e", "tru", "[1,]", "{\"a\" 1}", "{\"a\":1,}")) {
            Files.writeString(f, "{\"text\":\"a\",\"m\":" + v + "}\n");
            assertEquals(1, read(f, JsonlReader.OnError.SKIP, null).skipped().size(), v);
        }
    }

    @Test
    void valuesPastTheMetadataParsersLimitsAreMalformedLinesWithTheirOffset() throws IOException {
        // Valid JSON that the metadata parser (Jackson) refuses: before, the line was read and the rank failed
        // when a step first asked for its metadata, whatever on_error said.
        Path f = dir.resolve("meta.jsonl");
        String good = "{\"id\":\"g\",\"text\":\"a\"}\n";
        String prefix = "{\"id\":\"x\",\"text\":\"a\",\"metadata\":{\"n\":[";
        for (String tooLong : List.of("9".repeat(1001), "-" + "9".repeat(1001), "1." + "5".repeat(1000),
                "{\"" + "k".repeat(50_001) + "\":1}",
                "{\"" + "\u00e9".repeat(25_001) + "\":1}")) {
            Files.writeString(f, good + prefix + tooLong + "]}}\n");
            Read r = read(f, JsonlReader.OnError.SKIP, null);
            assertEquals(List.of("g"), r.docs().stream().map(Document::id).toList());
            assertEquals(1, r.skipped().size());
            int at = good.length() + prefix.length() + (tooLong.startsWith("{") ? 1 : 0); // the number, string or name
            assertTrue(r.skipped().get(0).startsWith("malformed: meta.jsonl:2 (byte " + at + "): malformed JSON: a "),
                    r.skipped().get(0).substring(0, 100));
            assertTrue(r.skipped().get(0).contains("the metadata parser's limit of"), r.skipped().get(0));
        }
        // at the limits as the parser counts them (digits; UTF-8 bytes of a name), or under them once decoded (two
        // bytes a character, an escape of six), they parse; so do strings past Jackson's 20 M characters, which
        // raw HTML kept in the metadata can be (before: a malformed line)
        for (String fits : List.of("9".repeat(1000), "-" + "9".repeat(1000), "1." + "5".repeat(999), "1.5e" + "1".repeat(998),
                "\"" + "s".repeat(25_000_000) + "\"", "\"" + "\\u00e9".repeat(4_000_000) + "\"",
                "{\"" + "k".repeat(50_000) + "\":1}", "{\"" + "\u00e9".repeat(25_000) + "\":1}",
                "{\"" + "\\u00e9".repeat(25_000) + "\":1}")) {
            Files.writeString(f, prefix + fits + "]}}\n");
            Read r = read(f, JsonlReader.OnError.FAIL, null);
            assertEquals(1, r.docs().size());
            assertEquals(1, ((List<?>) r.docs().get(0).metadata().get("n")).size());
        }
        // the text, the id and datatrove's media are skipped by the parser, their strings undecoded: no limit
        Files.writeString(f, "{\"text\":\"" + "t".repeat(20_000_001) + "\",\"media\":[{\"b\":\"" + "m".repeat(20_000_001)
                + "\"}]}\n");
        Document d = read(f, JsonlReader.OnError.FAIL, null).docs().get(0);
        assertEquals(20_000_001, d.text().length());
        assertEquals(Map.of(), d.metadata());
    }

    @Test
    void aZstdFileMayStartWithASkippableFrame() throws IOException {
        byte[][] parts = twoParts(Compression.ZSTD);
        byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'a', 'b', 'c'}; // as pzstd writes before its frames
        Path f = dir.resolve("skippable.jsonl.zst");
        Files.write(f, concat(concat(skippable, parts[0], parts[0].length), parts[1], parts[1].length));
        assertEquals(20, read(f, JsonlReader.OnError.FAIL, null).docs().size());
    }

    @Test
    void zeroBytesPaddingAGzipFileAreNotDamageButOtherBytesAfterThemAre() throws IOException {
        byte[][] parts = twoParts(Compression.GZIP);
        byte[] padded = concat(concat(parts[0], parts[1], parts[1].length), new byte[512], 512);
        Path f = dir.resolve("padded.jsonl.gz");
        Files.write(f, padded);
        assertEquals(20, read(f, JsonlReader.OnError.FAIL, null).docs().size(), "as gzip -d and Python's gzip read it");
        Path g = dir.resolve("after-padding.jsonl.gz");
        Files.write(g, concat(padded, new byte[] {'x'}, 1));
        IOException e = assertThrows(IOException.class, () -> read(g, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().startsWith("after-padding.jsonl.gz: corrupt or truncated gzip stream"), e.getMessage());
    }

    /**
     * A line too long for the heap is an error naming the file, the line and its byte offset, with advice: it was
     * the JVM's bare OutOfMemoryError. Read in a child JVM with a 64 MB heap, the line 200 MB of text.
     */
    @Test
    void aLineTooLongForTheHeapIsNamed() throws Exception {
        Path f = dir.resolve("big.jsonl.zst");
        byte[] chunk = "abcdefgh".repeat(1 << 17).getBytes(StandardCharsets.US_ASCII); // 1 MB
        try (OutputStream out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(f))) {
            out.write("{\"text\":\"a\"}\n{\"text\":\"b\"}\n{\"text\":\"".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 200; i++) {
                out.write(chunk);
            }
            out.write("\"}\n".getBytes(StandardCharsets.US_ASCII));
        }
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                ReadAllMain.class.getName(), f.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.matches("(?s).*IOException: big\\.jsonl\\.zst:3 \\(byte 26\\): a line of more than \\d+ MB does not fit in"
                + " the heap; give the workers more heap \\(SLUICE_JAVA_OPTS=-Xmx\\.\\.\\., or the slurm block's memory\\) or"
                + " fewer workers.*"), out);
    }

    /**
     * A bzip2 or xz file cut short, or followed by junk, gives every document decoded before the damage, then the
     * error: commons-compress threw away the megabyte it had decoded into the reader's buffer, so 1,000 documents
     * of 5,000 were lost and the error named a line that far back. The oracle decodes the damaged file a byte at a
     * time, which loses nothing; xz may lose up to DamageDeferringInputStream.MOST bytes before the damage.
     */
    @ParameterizedTest
    @ValueSource(strings = {"d.jsonl.bz2", "d.jsonl.xz"})
    void aDamagedBzip2OrXzFileGivesTheDocumentsBeforeTheDamage(String name) throws IOException {
        Path f = TestFiles.write(dir.resolve(name), numberedDocs(5000));
        byte[] whole = Files.readAllBytes(f);
        byte[] junk = Arrays.copyOf(whole, whole.length + 8);
        System.arraycopy("garbage!".getBytes(StandardCharsets.US_ASCII), 0, junk, whole.length, 8);
        int slack = name.endsWith(".xz") ? DamageDeferringInputStream.MOST : 0;
        for (byte[] damaged : List.of(junk, Arrays.copyOf(whole, whole.length * 9 / 10))) {
            Files.write(f, damaged);
            long complete = completeLinesBeforeDamage(f);
            Read r = new Read(new ArrayList<>(), new ArrayList<>());
            IOException e = assertThrows(IOException.class, () -> readInto(r, f, JsonlReader.OnError.FAIL, null));
            assertTrue(e.getMessage().startsWith(name + ": corrupt or truncated"), e.getMessage());
            long lostBytes = 0;
            for (int i = r.docs().size(); i < complete; i++) {
                lostBytes += numberedDoc(i).length();
            }
            assertTrue(lostBytes <= slack, r.docs().size() + " of " + complete + " documents before the damage: " + e.getMessage());
            assertTrue(e.getMessage().contains("(after line " + r.docs().size() + ","), e.getMessage());
        }
    }

    /**
     * A gzip file whose deflate data is damaged in the middle (gzip -d decodes it all and reports a CRC error; Java's
     * inflater stops at the damage): the documents before the damage come out, less at most one inflate call's
     * worth, and the error names a line near it. Before, the reader's first read inflated the whole small file and
     * threw it all away: "after line 0, uncompressed byte 0".
     */
    @Test
    void aGzipFileDamagedInsideGivesTheDocumentsBeforeTheDamage() throws IOException {
        Path f = TestFiles.write(dir.resolve("d.jsonl.gz"), numberedDocs(3000));
        byte[] damaged = Files.readAllBytes(f);
        for (int i = damaged.length / 2; i < damaged.length / 2 + 40; i++) {
            damaged[i] ^= 0x55;
        }
        Files.write(f, damaged);
        // the intact documents a byte-at-a-time decoder gives before garbled bytes or the inflater's error
        java.io.ByteArrayOutputStream decoded = new java.io.ByteArrayOutputStream();
        try (InputStream in = new org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream(
                new java.io.BufferedInputStream(Files.newInputStream(f)))) {
            int c;
            while ((c = in.read()) >= 0) {
                decoded.write(c);
            }
        } catch (IOException expected) {
            // the damage
        }
        long complete = 0;
        String text = decoded.toString(StandardCharsets.ISO_8859_1);
        for (int at = 0; text.startsWith(numberedDoc((int) complete), at); complete++) {
            at += numberedDoc((int) complete).length();
        }
        assertTrue(complete > 1000 && complete < 3000, "the damage is in the middle: " + complete);
        Read r = new Read(new ArrayList<>(), new ArrayList<>());
        // a garbled line or the inflater's error, whichever comes first; both say the file may be damaged
        IOException e = assertThrows(IOException.class, () -> readInto(r, f, JsonlReader.OnError.FAIL, null));
        long lostBytes = 0;
        for (int i = r.docs().size(); i < complete; i++) {
            lostBytes += numberedDoc(i).length();
        }
        assertTrue(lostBytes <= DamageDeferringInputStream.MOST_INFLATED, r.docs().size() + " of " + complete
                + " documents before the damage: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("d.jsonl.gz: corrupt or truncated gzip stream")
                ? e.getMessage().contains("(after line " + r.docs().size() + ",")
                : e.getMessage().startsWith("d.jsonl.gz:" + (r.docs().size() + 1) + " (byte ")
                        && e.getMessage().endsWith("(or the compressed file is damaged: `gzip -t` checks it)"), e.getMessage());
    }

    /** Document {@code i} of {@link #numberedDocs}: a line of its own, words differing from line to line. */
    private static String numberedDoc(int i) {
        return TestFiles.doc("d" + i, "document number " + i + " with some words " + (i * 7919));
    }

    private static String numberedDocs(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(numberedDoc(i));
        }
        return sb.toString();
    }

    /** The complete lines a byte-at-a-time decoder gives before it meets the damage. */
    private static long completeLinesBeforeDamage(Path f) throws IOException {
        long lines = 0;
        try (InputStream raw = new java.io.BufferedInputStream(Files.newInputStream(f));
             InputStream in = f.toString().endsWith(".xz")
                     ? new org.apache.commons.compress.compressors.xz.XZCompressorInputStream(raw, true)
                     : new org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream(raw, true)) {
            int c;
            while ((c = in.read()) >= 0) {
                lines += c == '\n' ? 1 : 0;
            }
        } catch (IOException expected) {
            return lines;
        }
        throw new AssertionError(f + " has no damage");
    }

    /** A piece of a split plain file whose first line starts as a compressed file does is one bad line, not a bad file. */
    @Test
    void aPieceStartingWithAnotherFormatsMagicIsOneBadLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            sb.append(TestFiles.doc("d" + i, "words " + i));
        }
        int pieceStart = sb.length();
        sb.append("BZh91AY&SY not a document\n");
        for (int i = 100; i < 200; i++) {
            sb.append(TestFiles.doc("d" + i, "words " + i));
        }
        Path f = dir.resolve("split.jsonl");
        Files.writeString(f, sb.toString());
        Read r = new Read(new ArrayList<>(), new ArrayList<>());
        for (InputPiece piece : List.of(new InputPiece("split.jsonl", 0, pieceStart), new InputPiece("split.jsonl", pieceStart, sb.length()))) {
            readInto(r, piece, JsonlReader.OnError.SKIP, null);
        }
        assertEquals(200, r.docs().size());
        assertEquals(1, r.skipped().size(), r.skipped().toString());
        assertTrue(r.skipped().get(0).startsWith("malformed: split.jsonl (byte " + pieceStart + ")"), r.skipped().get(0));
    }

    /** A file written with zstd --long=31 is refused as such, with the way out: it was called damaged. */
    @Test
    void aZstdFrameWithALongWindowIsNamedSo() throws IOException {
        Path f = dir.resolve("long.jsonl.zst");
        try (com.github.luben.zstd.ZstdOutputStream out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(f))) {
            out.setWindowLog(31);
            out.write(TestFiles.doc("a", "some words").getBytes(StandardCharsets.UTF_8));
        }
        IOException e = assertThrows(IOException.class, () -> read(f, JsonlReader.OnError.FAIL, null));
        assertTrue(e.getMessage().contains("a frame asks for a window of 2^31 bytes (written with zstd --long=31), more than"
                + " the 2^27 that zstd reads without --long and Sluice reads at all; recompress it without --long"), e.getMessage());
    }
}
