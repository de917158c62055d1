package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metadata is parsed only when read: values put before are applied in order, and a lookup of a key the
 * line cannot hold answers without parsing. What a user sees (the written metadata) must not change.
 */
class LazyMetadataTest {
    @TempDir
    Path dir;

    private List<Document> read(String content, Map<String, Object> defaults) throws IOException {
        Path f = TestFiles.write(dir.resolve("in.jsonl"), content);
        List<Document> docs = new ArrayList<>();
        new JsonlReader(new JsonlReader.Options("text", "id", defaults, JsonlReader.OnError.FAIL))
                .read(dir, new InputPiece(dir.relativize(f).toString(), 0, -1), new JsonlReader.Handler() {
                    @Override
                    public boolean document(Document doc) {
                        docs.add(doc); // a view: the test reads it after the file is done, fine for one-line files
                        return true;
                    }

                    @Override
                    public void skipped(String reason, String message) {
                    }
                });
        return docs;
    }

    @Test
    void putsBeforeParsingLandAfterTheLinesKeysInOrder() throws IOException {
        Document doc = read("{\"id\":\"a\",\"text\":\"t\",\"metadata\":{\"x\":1,\"y\":2},\"lang\":\"en\"}\n", null).get(0);
        doc.putMetadata("n_words", 3L);
        doc.putMetadata("x", 10L); // replaces the line's value, in its place
        doc.putMetadata("ratio", 0.5);
        assertTrue(doc.mustSerialise());
        assertEquals(10L, doc.metadataValue("x"), "the pending value, before any parse");
        assertEquals(List.of("x", "y", "lang", "n_words", "ratio"), new ArrayList<>(doc.metadata().keySet()));
        assertEquals(10L, doc.metadata().get("x"));
        assertEquals(2, ((Number) doc.metadata().get("y")).intValue());
        doc.putMetadata("after", true);
        assertEquals(true, doc.metadata().get("after"));
    }

    @Test
    void keysTheLineCannotHoldAreAbsentAndKeysItHoldsAreFound() throws IOException {
        List<Document> docs = read("""
                {"id":"a","text":"the url of \\"url\\" is not a key","metadata":{"source":"web"}}
                {"id":"b","text":"t","metadata":{"url":"http://x.org/","token_count":7}}
                {"id":"c","text":"t","metadata":{"\\u0075rl":"http://escaped.org/"}}
                {"id":"d","text":"t","metadata":{"nested":{"url":"http://deep.org/"}}}
                """, Map.of("token_count", 99));
        Document a = docs.get(0);
        assertNull(a.metadataValue("url"));
        assertEquals(99, a.metadataValue("token_count"), "default_metadata fills keys a line lacks");
        assertEquals("http://x.org/", docs.get(1).metadataValue("url"));
        assertEquals(7, docs.get(1).metadataValue("token_count"));
        assertEquals("http://escaped.org/", docs.get(2).metadataValue("url"), "a key spelled with an escape");
        assertNull(docs.get(3).metadataValue("url"), "only the metadata's own keys, as metadata().get does");
        // the line's "no" is remembered (three stats steps ask each document), puts of other keys do not change it,
        // and a put of the key itself is found
        a = read("{\"id\":\"a\",\"text\":\"t\",\"metadata\":{\"source\":\"web\"}}\n", null).get(0);
        assertNull(a.metadataValue("url"));
        a.putMetadata("n_words", 3L);
        assertFalse(a.mayHaveMetadataKey("url"), "before, any put made every key possible");
        assertNull(a.metadataValue("url"));
        a.putMetadata("url", "http://put.org/");
        assertEquals("http://put.org/", a.metadataValue("url"));
        assertTrue(a.mayHaveMetadataKey("url"));
        assertEquals("http://put.org/", a.metadata().get("url"));
    }

    @Test
    void theRawProbeIsConservative() {
        byte[] line = "{\"id\":\"x\",\"text\":\"abc\",\"meta\":\"url\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(JsonlReader.mayHold(line, 0, line.length, "url"), "the quoted word as a value: maybe");
        assertFalse(JsonlReader.mayHold(line, 0, line.length, "token_count"));
        byte[] escaped = "{\"a\":\"\\n\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(JsonlReader.mayHold(escaped, 0, escaped.length, "token_count"), "any escape: maybe");
    }
}
