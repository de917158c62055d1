package io.sluice.formatters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** What the formatters' tests compare with Python: the corpora of ../shared and the references made from them. */
final class PythonReference {
    private PythonReference() {
    }

    /** ../shared/data/corpus (or below {@code -Dsluice.shared}); the test is skipped when it is absent. */
    static Path corpus() {
        Path corpus = Path.of(System.getProperty("sluice.shared", "../shared")).resolve("data/corpus");
        Assumptions.assumeTrue(Files.isDirectory(corpus), "shared data not present");
        return corpus;
    }

    /** The lines of a reference file beside the tests, made by its make_*_reference.py. */
    static List<String> lines(String name) throws IOException {
        try (InputStream in = PythonReference.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    /** A text's UTF-16 code units, low byte first: Python's {@code encode("utf-16-le", "surrogatepass")}. */
    static byte[] utf16(String s) {
        byte[] b = new byte[2 * s.length()];
        for (int i = 0; i < s.length(); i++) {
            b[2 * i] = (byte) s.charAt(i);
            b[2 * i + 1] = (byte) (s.charAt(i) >>> 8);
        }
        return b;
    }
}
