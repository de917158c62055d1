package io.sluice.filters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import io.sluice.doc.Document;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;

/** Reads the shared test data (zstd JSONL) for tests; skips the test when shared/ is not there. */
final class SharedData {
    static final ObjectMapper JSON = new ObjectMapper();

    private SharedData() {
    }

    /** A file under shared/data; the calling test is skipped when it is missing. */
    static Path file(String relative) {
        String shared = System.getProperty("sluice.shared", "../../shared");
        Path p = Path.of(shared, "data", relative);
        Assumptions.assumeTrue(Files.isRegularFile(p), "shared data not found: " + p);
        return p;
    }

    static void forEachLine(Path file, Consumer<JsonNode> action) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new ZstdInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    action.accept(JSON.readTree(line));
                }
            }
        }
    }

    static List<JsonNode> lines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        forEachLine(file, out::add);
        return out;
    }

    @SuppressWarnings("unchecked")
    static Document document(JsonNode node) {
        Map<String, Object> meta = node.has("metadata")
                ? JSON.convertValue(node.get("metadata"), Map.class) : new java.util.LinkedHashMap<>();
        return new Document(node.path("id").asText(), node.path("text").asText(), meta);
    }

    static List<Document> documents(Path file) throws IOException {
        List<Document> out = new ArrayList<>();
        forEachLine(file, n -> out.add(document(n)));
        return out;
    }
}
