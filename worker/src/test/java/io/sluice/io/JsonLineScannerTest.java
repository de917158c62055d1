package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonLineScannerTest {
    private final JsonLineScanner scanner = new JsonLineScanner("text", "id");

    private boolean scan(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return scanner.scan(b, 0, b.length);
    }

    @Test
    void findsTextAndIdAndDecodesEscapesAsJacksonDoes() throws Exception {
        String line = "{\"meta\":{\"text\":\"nested, not this\",\"a\":[1,{\"b\":\"}\"}]},\"id\":\"x\\\"1\","
                + "\"text\":\"tab\\there \\u00e9\\ud83d\\ude00 caf\u00e9\\n\\\\ \\/\",\"n\":-1.5e3,\"t\":true}";
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        assertTrue(scanner.scan(b, 0, b.length), scanner.error);
        String text = JsonLineScanner.decode(b, scanner.textStart, scanner.textEnd, scanner.textEscaped);
        String id = JsonLineScanner.decode(b, scanner.idStart, scanner.idEnd, scanner.idEscaped);
        Map<?, ?> jackson = new ObjectMapper().readValue(b, Map.class);
        assertEquals(jackson.get("text"), text);
        assertEquals(jackson.get("id"), id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1,2]", "{\"text\":\"a\"", "{\"text\":\"a\"} x", "{\"text\" \"a\"}", "{text:\"a\"}",
        "{\"text\":\"a\",}", "{\"text\":\"a\\q\"}", "{\"text\":\"a\\u12\"}", "{\"text\":nul}", "{\"a\":[1,2}",
        "{\"text\":\"a\tb\"}", "{\"text\":\"a\",\"b\":}"})
    void rejectsWhatJsonRejects(String line) {
        assertFalse(scan(line), line);
    }

    @Test
    void agreesWithJacksonOnRandomLines() throws Exception {
        Random r = new Random(1);
        ObjectMapper om = new ObjectMapper();
        String alphabet = "ab \"\\/\n\t\u00e9\u4e2d\uD83D\uDE00{}[],:";
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < r.nextInt(40); k++) {
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String text = sb.toString().replace("\uD83D", "").replace("\uDE00", "\uD83D\uDE00");
            String line = om.writeValueAsString(Map.of("text", text, "id", "i" + i, "m", Map.of("k", text)));
            // and as Python's json.dumps writes by default: every non-ASCII character as a \\u escape
            String asciiLine = om.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII).writeValueAsString(Map.of("text", text));
            for (String l : List.of(line, asciiLine)) {
                byte[] b = l.getBytes(StandardCharsets.UTF_8);
                assertTrue(scanner.scan(b, 0, b.length), l);
                assertEquals(text, JsonLineScanner.decode(b, scanner.textStart, scanner.textEnd, scanner.textEscaped), l);
                assertEquals(text.codePointCount(0, text.length()), scanner.textCodePoints, l);
            }
        }
    }

    @Test
    void loneSurrogateEscapesDecodeAsJacksonDoes() throws Exception {
        for (String body : List.of("a\\ud800b", "\\udc00", "x\\u00e9\\ud83d\\ude00\\u20ac\\ud800")) {
            byte[] b = ("{\"text\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
            assertTrue(scanner.scan(b, 0, b.length), body);
            assertEquals(new ObjectMapper().readValue(b, Map.class).get("text"),
                    JsonLineScanner.decode(b, scanner.textStart, scanner.textEnd, scanner.textEscaped), body);
        }
        // Python's len(): a lone half is one code point, a pair one, whether escaped or not
        Map<String, Integer> lengths = Map.of("a\\ud800b", 3, "\\udc00", 1, "x\\u00e9\\ud83d\\ude00\\u20ac\\ud800", 5,
                "\\ud83d\\u0041", 2, "\\\\ud83d", 6, "\uD83D\uDE00\\ud83d\\ude00", 2);
        lengths.forEach((body, length) -> {
            byte[] b = ("{\"text\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
            assertTrue(scanner.scan(b, 0, b.length), body);
            String text = JsonLineScanner.decode(b, scanner.textStart, scanner.textEnd, scanner.textEscaped);
            assertEquals(length, text.codePointCount(0, text.length()), body);
            assertEquals(length, scanner.textCodePoints, body);
        });
    }

    /** Whether a line may name token_count, at any depth: for the others, doc_len_tokens needs no metadata lookup. */
    @Test
    void notesWhetherALineMayNameTokenCount() {
        assertTrue(scan("{\"text\":\"token_count\",\"metadata\":{\"a\":{\"token_count\":3}}}") && scanner.mayHoldTokenCount);
        assertTrue(scan("{\"text\":\"a\",\"token_count\":3}") && scanner.mayHoldTokenCount);
        assertTrue(scan("{\"text\":\"a\",\"metadata\":{\"token_\\u0063ount\":3}}") && scanner.mayHoldTokenCount, "escaped");
        assertTrue(scan("{\"text\":\"token_count\",\"metadata\":{\"count\":\"token_count\",\"token_counts\":1}}"));
        assertFalse(scanner.mayHoldTokenCount, "only a field's name counts");
    }
}
