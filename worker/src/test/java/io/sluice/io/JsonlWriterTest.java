package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlWriterTest {
    @TempDir
    Path dir;
    /** A logging dir: its stage folders' siblings hold the ranks' journals of the files they wrote. */
    @TempDir
    Path logs;


    @Test
    void unmodifiedDocumentsAreCopiedByteForByte() throws IOException {
        // unusual but valid JSON: key order, spacing and escapes must survive a pass-through
        String line = "{ \"metadata\" : {\"b\":1,\"a\":[1,2]}, \"text\":\"caf\\u00e9\\n\", \"id\":\"x\" , \"extra\": null}";
        Path in = TestFiles.write(dir.resolve("in/a.jsonl"), line + "\n");
        Document d = JsonlReader.readAll(in).get(0);
        try (JsonlWriter w = new JsonlWriter(dir.resolve("out"), "${rank}.jsonl", Compression.NONE, 0, 3)) {
            w.write(d);
            w.commit();
        }
        assertEquals(line + "\n", Files.readString(dir.resolve("out/00003.jsonl")));
    }

    @Test
    void modifiedDocumentsAreSerialisedInDatatroveFieldOrder() throws IOException {
        Document d = new Document("id1", "hello", new java.util.LinkedHashMap<>(Map.of("k", "v")));
        Document empty = new Document("id2", "x\"y", null);
        try (JsonlWriter w = new JsonlWriter(dir, "out.jsonl", Compression.NONE, 0, 0)) {
            w.write(d);
            w.write(empty);
            w.commit();
        }
        assertEquals("{\"text\":\"hello\",\"id\":\"id1\",\"metadata\":{\"k\":\"v\"}}\n{\"text\":\"x\\\"y\",\"id\":\"id2\"}\n",
                Files.readString(dir.resolve("out.jsonl")));
    }

    /**
     * Floats are written as datatrove's json.dumps writes them (Python's repr), nested ones too: Jackson wrote 5.0E-4 for
     * a stats step's uppercase_ratio that datatrove writes 0.0005.
     */
    @Test
    void floatsAreWrittenAsPythonWritesThem() throws IOException {
        java.util.Map<String, Object> md = new java.util.LinkedHashMap<>();
        md.put("uppercase_ratio", 0.0005);
        md.put("tiny", 5e-6);
        md.put("big", 1e7);
        md.put("huge", 1e16);
        md.put("whole", 2.0);
        md.put("nested", java.util.List.of(0.1, Double.NaN, Double.NEGATIVE_INFINITY, java.util.Map.of("x", 123456789.125)));
        md.put("int", 7L);
        try (JsonlWriter w = new JsonlWriter(dir, "out.jsonl", Compression.NONE, 0, 0)) {
            w.write(new Document("id", "t", md));
            w.commit();
        }
        assertEquals("{\"text\":\"t\",\"id\":\"id\",\"metadata\":{\"uppercase_ratio\":0.0005,\"tiny\":5e-06,\"big\":10000000.0,"
                + "\"huge\":1e+16,\"whole\":2.0,\"nested\":[0.1,NaN,-Infinity,{\"x\":123456789.125}],\"int\":7}}\n",
                Files.readString(dir.resolve("out.jsonl")));
    }

    /**
     * A line the reader takes at its deepest nesting is written one level deeper, under "metadata": before, the
     * writer refused it, and the rank failed on a 24 KB message that named no document.
     */
    @Test
    void metadataAtTheReadersDeepestNestingIsWritten() throws IOException {
        int depth = com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();
        String deep = "[".repeat(depth - 1) + "]".repeat(depth - 1);
        // without an id, the line alone would not give the document back: it is serialised, not copied
        Path in = TestFiles.write(dir.resolve("in/deep.jsonl"), "{\"text\":\"a\",\"m\":" + deep + "}\n");
        Document d = JsonlReader.readAll(in).get(0);
        d.metadata().put("changed", true);
        try (JsonlWriter w = new JsonlWriter(dir.resolve("out"), "out.jsonl", Compression.NONE, 0, 0)) {
            w.write(d);
            w.commit();
        }
        String line = Files.readString(dir.resolve("out/out.jsonl"));
        assertTrue(line.startsWith("{\"text\":\"a\",\"id\":\"deep.jsonl/"), line.substring(0, 60));
        assertTrue(line.endsWith("\",\"metadata\":{\"m\":" + deep + ",\"changed\":true}}\n"), line.substring(0, 60));
    }

    @Test
    void nothingAppearsUnderTheFinalNameBeforeCommit() throws IOException {
        JsonlWriter w = new JsonlWriter(dir, "${rank}.jsonl.zst", Compression.ZSTD, 0, 1);
        w.write(new Document("a", "text", null));
        assertFalse(Files.exists(dir.resolve("00001.jsonl.zst")));
        assertTrue(Files.exists(dir.resolve("00001.jsonl.zst.tmp")));
        w.close(); // abandoned: the temporary file goes away too
        assertEquals(List.of(), TestFiles.files(dir));
    }

    @Test
    void templateUsesMetadataAndRollsOverAtMaxFileSize() throws IOException {
        try (JsonlWriter w = new JsonlWriter(dir, "${lang}/${rank}.jsonl.gz", Compression.GZIP, 100, 2)) {
            for (int i = 0; i < 10; i++) {
                Document d = new Document("d" + i, "some text number " + i, new java.util.LinkedHashMap<>(
                        Map.of("lang", i % 2 == 0 ? "en" : "fr")));
                w.write(d);
            }
            w.commit();
        }
        List<String> names = TestFiles.files(dir).stream().map(p -> dir.relativize(p).toString()).toList();
        // each line is about 75 bytes, so every file closes after its second line
        assertEquals(List.of("en/000_00002.jsonl.gz", "en/001_00002.jsonl.gz", "en/002_00002.jsonl.gz",
                "fr/000_00002.jsonl.gz", "fr/001_00002.jsonl.gz", "fr/002_00002.jsonl.gz"), names);
        assertEquals(5, TestFiles.allLines(dir.resolve("en")).size());
    }

    /** A metadata value that cannot be a file name fails with the document named: it said only "File name too long". */
    @Test
    void aMetadataValueThatCannotNameAFileNamesTheDocument() throws IOException {
        try (JsonlWriter w = new JsonlWriter(dir, "${source}/${rank}.jsonl", Compression.NONE, 0, 0)) {
            w.write(new Document("ok", "text", new java.util.LinkedHashMap<>(Map.of("source", "web"))));
            Document d = new Document("long-source", "text", new java.util.LinkedHashMap<>(Map.of("source", "x".repeat(300))));
            IOException e = assertThrows(IOException.class, () -> w.write(d));
            assertEquals(d.describe() + ": cannot create '" + "x".repeat(300) + "/00000.jsonl', the file output_filename names"
                    + " for it: File name too long", e.getMessage());
        }
    }

    @Test
    void compressedOutputIsDeterministic() throws IOException {
        for (String run : List.of("a", "b")) {
            for (Compression c : List.of(Compression.ZSTD, Compression.GZIP)) {
                try (JsonlWriter w = new JsonlWriter(dir.resolve(run), "f.jsonl" + c.extension(), c, 0, 0)) {
                    for (int i = 0; i < 1000; i++) {
                        w.write(new Document("d" + i, "text " + i, null));
                    }
                    w.commit();
                }
            }
        }
        assertEquals(TestFiles.hashes(dir.resolve("a")), TestFiles.hashes(dir.resolve("b")));
        byte[] plain = TestFiles.zstdDecompress(Files.readAllBytes(dir.resolve("a/f.jsonl.zst")));
        assertArrayEquals(TestFiles.lines(dir.resolve("a/f.jsonl.gz")).stream().map(s -> s + "\n")
                .reduce("", String::concat).getBytes(StandardCharsets.UTF_8), plain);
    }

    @Test
    void aWriterNotesEachFileBeforeCreatingIt() throws IOException {
        RankFiles files = RankFiles.of(logs.resolve("s"), 0);
        try (JsonlWriter w = new JsonlWriter(dir, "${rank}.jsonl", Compression.NONE, 1, 0, files, (d, k, f) -> { })) {
            w.write(new Document("a", "t", new java.util.LinkedHashMap<>()));
            // the first piece is noted, and already in place, before the rank ends: a kill now leaves it
            assertEquals(List.of(dir.resolve("000_00000.jsonl")), RankFiles.noted(logs.resolve("s")));
            w.write(new Document("b", "t", new java.util.LinkedHashMap<>()));
            w.commit();
        }
        assertEquals(List.of(dir.resolve("000_00000.jsonl"), dir.resolve("001_00000.jsonl")), RankFiles.noted(logs.resolve("s")));
        // the output folder holds the documents alone: datatrove's readers list every file of a folder
        assertEquals(List.of("000_00000.jsonl", "001_00000.jsonl"), names());
    }

    private List<String> names() throws IOException {
        return TestFiles.files(dir).stream().map(p -> dir.relativize(p).toString().replace('\\', '/')).toList();
    }

    @Test
    void metadataValuesInFileNamesNeverLeaveTheFolder() throws IOException {
        try (JsonlWriter w = new JsonlWriter(dir, "${lang}/x-${rank}.jsonl", Compression.NONE, 0, 0)) {
            for (String lang : List.of("", ".", "..", "a/b", "en")) {
                w.write(new Document("d-" + lang, "t", new java.util.LinkedHashMap<>(Map.of("lang", lang))));
            }
            w.write(new Document("no-lang", "t", new java.util.LinkedHashMap<>()));
            w.commit();
        }
        List<String> files = TestFiles.files(dir).stream().map(p -> dir.relativize(p).toString()).toList();
        assertEquals(List.of("_../x-00000.jsonl", "_./x-00000.jsonl", "_/x-00000.jsonl", "a_b/x-00000.jsonl",
                "en/x-00000.jsonl", "none/x-00000.jsonl"), files);
    }

    /** A value that is not a string is named as Python's str() writes it, as datatrove names it (before, Java's). */
    @Test
    void metadataValuesAreNamedAsPythonWritesThem() throws IOException {
        String lines = """
                {"text":"t","id":"1","v":true}
                {"text":"t","id":"2","v":1e20}
                {"text":"t","id":"3","v":2.50}
                {"text":"t","id":"4","v":12345678901234567890}
                {"text":"t","id":"5","v":["a",1,null,false]}
                {"text":"t","id":"6","v":{"k":0.1,"it's":"x\\ty"}}
                {"text":"t","id":"7","v":null}
                {"text":"t","id":"8","v":["\\u00a0\\u200b\\udbff\\udfff\\u00e9",5e-324]}
                """;
        List<Document> docs = JsonlReader.readAll(TestFiles.write(dir.resolve("in/v.jsonl"), lines));
        try (JsonlWriter w = new JsonlWriter(dir.resolve("out"), "${v}.jsonl", Compression.NONE, 0, 0)) {
            for (Document d : docs) {
                w.write(d);
            }
            w.commit();
        }
        List<String> files = TestFiles.files(dir.resolve("out")).stream().map(p -> p.getFileName().toString()).sorted().toList();
        assertEquals(List.of("12345678901234567890.jsonl", "1e+20.jsonl", "2.5.jsonl",
                "None.jsonl" /* a key given as null is there, as in datatrove; one not there is "none" */, "True.jsonl",
                "['_xa0_u200b_U0010ffffé', 5e-324].jsonl" /* Python's escapes for what it does not print */,
                "['a', 1, None, False].jsonl", "{'k': 0.1, \"it's\": 'x_ty'}.jsonl" /* repr's \\t, its backslash replaced */), files);
    }
}
