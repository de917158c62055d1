package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds a benchmark corpus of at least {@code targetBytes} uncompressed JSONL from the shared
 * corpora: every source line is replicated with a new id ({@code <id>#r<k>}), lines are dealt
 * round-robin into {@code files} zstd (level 3) files, and {@code BUILD.txt} says how.
 *
 * <pre>CorpusBuilder SOURCE_DIR OUT_DIR TARGET_BYTES FILES</pre>
 */
public final class CorpusBuilder {
    public static void main(String[] args) throws IOException {
        Path source = Path.of(args[0]);
        Path out = Path.of(args[1]);
        long target = Long.parseLong(args[2]);
        int nFiles = Integer.parseInt(args[3]);
        List<Path> sources;
        try (Stream<Path> s = Files.list(source)) {
            sources = s.filter(p -> p.toString().endsWith(".jsonl.zst")).sorted().toList();
        }
        Files.createDirectories(out);
        ObjectMapper json = new ObjectMapper();
        List<OutputStream> outs = new ArrayList<>();
        for (int i = 0; i < nFiles; i++) {
            outs.add(new ZstdOutputStream(Files.newOutputStream(out.resolve(String.format("part-%03d.jsonl.zst", i))), 3));
        }
        long bytes = 0;
        long docs = 0;
        int replica = 0;
        while (bytes < target) {
            for (Path src : sources) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(
                        new ZstdInputStream(Files.newInputStream(src)), StandardCharsets.UTF_8), 1 << 16)) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        ObjectNode doc = (ObjectNode) json.readTree(line);
                        doc.put("id", doc.path("id").asText() + "#r" + replica);
                        byte[] b = json.writeValueAsBytes(doc);
                        OutputStream o = outs.get((int) (docs % nFiles));
                        o.write(b);
                        o.write('\n');
                        bytes += b.length + 1;
                        docs++;
                    }
                }
            }
            replica++;
        }
        for (OutputStream o : outs) {
            o.close();
        }
        String note = String.format("%d documents, %d bytes uncompressed JSONL, in %d zstd-3 files: the %d corpora of %s "
                + "replicated %d times, each copy with new ids (<id>#r<k>), lines dealt round-robin over the files.%n",
                docs, bytes, nFiles, sources.size(), source, replica);
        Files.writeString(out.resolve("BUILD.txt"), note);
        Files.writeString(out.resolve(".bytes"), Long.toString(bytes));
        System.out.print(note);
    }
}
