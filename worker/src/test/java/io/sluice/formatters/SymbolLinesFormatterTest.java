package io.sluice.formatters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import io.sluice.job.StepRegistry;
import io.sluice.pipeline.StepContext;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SymbolLinesFormatterTest {
    @TempDir
    Path tmp;

    /** The context of the formatter made last. */
    private StepContext context;

    private SymbolLinesFormatter formatter(Map<String, Object> args) throws IOException {
        SymbolLinesFormatter f = new SymbolLinesFormatter(
                new StepArgs("symbol_lines_formatter", new LinkedHashMap<>(args)));
        context = StepContext.standalone("symbol_lines_formatter", tmp);
        f.open(context);
        return f;
    }

    private static String format(SymbolLinesFormatter f, String text) throws IOException {
        String[] out = new String[1];
        f.process(new Document("d", text, null), d -> out[0] = d.text());
        return out[0];
    }

    /** Each text, then what Python's re.sub makes of it with datatrove's pattern, with replace_char "" and "\n". */
    private static final String[][] CASES = {
        {"---", "", "\n"},
        {"a\n---\nb", "a\nb", "a\n\nb"},
        {"a\n--- \t\nb", "a\nb", "a\n\nb"},                      // spaces after the symbols
        {"a\n ---\nb", "a\n ---\nb", "a\n ---\nb"},              // a line starting with a space stays
        {"a\r\n---\r\nb\r\n", "a\r\nb\r\n", "a\r\n\nb\r\n"},    // "\r" is one of PUNCTUATION,
        {"a\r\n\r\nb", "a\r\nb", "a\r\n\nb"},                    //   so an empty line of "\r\n" text is a symbol line
        {"a\n---", "a\n", "a\n\n"},                              // at the very end, without a newline
        {"a\n---\n", "a\n", "a\n\n"},
        {"a\n---\n***\n===\nb", "a\nb", "a\n\nb"},               // lines in a row: one replacement
        {"a\n---\n\n***\nb", "a\n\nb", "a\n\n\n\nb"},            // an empty line between: two, and it stays
        {"a\n   \n\t\n\u3000\nb", "a\n   \n\t\n\u3000\nb", "a\n   \n\t\n\u3000\nb"}, // lines of spaces stay
        {"", "", ""},
        {"--- a", "--- a", "--- a"},
        {"---\n--- a\n---", "--- a\n", "\n--- a\n\n"},
        {"-\u001c\u0085\u3000\u2014", "", "\n"},                 // U+001C and U+0085: spaces and PUNCTUATION
        {"\u001c---\n\u3000---\n", "\u3000---\n", "\n\u3000---\n"},
        {"\uff11\uff12\n\uff11\uff11\n", "\uff11\uff12\n", "\uff11\uff12\n\n"}, // fullwidth 1 is in PUNCTUATION, 2 not
        {"---\u2028---\nx", "x", "\nx"},                         // U+2028 is a space here, not a line end
        {"\n\n---\n\n", "\n\n\n", "\n\n\n\n"},
        {"\u000b\n\u000c\n\u0085", "", "\n"},
    };

    @Test
    void removesTheLinesPythonsReSubRemoves() throws IOException {
        SymbolLinesFormatter removing = formatter(Map.of());
        SymbolLinesFormatter newline = formatter(Map.of("replace_char", "\n"));
        for (String[] c : CASES) {
            assertEquals(c[1], format(removing, c[0]), c[0]);
            assertEquals(c[2], format(newline, c[0]), c[0]);
        }
    }

    @Test
    void countsTheLinesRemoved() throws IOException {
        SymbolLinesFormatter f = formatter(Map.of());
        format(f, "a\n---\n***\n===\nb");
        format(f, "---\n--- a\n---");
        format(f, "no symbols\n  \n");
        assertEquals(5, context.stats().get("lines_removed"));
        assertEquals(2, context.stats().get("formatted"));
    }

    @Test
    void replaceCharIsReadAsPythonReadsAReplacement() throws IOException {
        assertEquals("a\nA\\-\t\\b", format(formatter(Map.of("replace_char", "\\101\\-\\t\\\\")), "a\n--\nb"));
        assertEquals("a\n\nb", format(formatter(Map.of("replace_char", "\\n")), "a\n--\nb"));
        for (String[] refused : new String[][] {
            {"\\1", "holds a group reference (\\1), which symbol_lines_formatter does not take"},
            {"\\g<0>", "holds a group reference (\\g), which symbol_lines_formatter does not take"},
            {"\\q", "holds the escape \\q, which Python's re.sub refuses (bad escape)"},
            {"x\\", "ends with a lone backslash, which Python's re.sub refuses (write \\\\ for one)"}}) {
            JobException e = assertThrows(JobException.class, () -> formatter(Map.of("replace_char", refused[0])));
            assertEquals("symbol_lines_formatter: 'replace_char' " + refused[1], e.getMessage());
        }
    }

    /**
     * Texts of 5 MB: java.util.regex, given the pattern, overflows its stack on the second and third (a thousand
     * symbol lines in a row are enough); Python would backtrack for ages on the fourth.
     */
    @Test
    void largeTextsTakeLittleTime() throws IOException {
        SymbolLinesFormatter f = formatter(Map.of());
        String dashes = "-".repeat(5_000_000);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertEquals("a\nz", format(f, "a\n" + dashes + "\nz"));
            assertEquals("a\nz", format(f, "a\n" + "- ".repeat(2_500_000) + "\nz"));
            assertEquals("a\nz", format(f, "a\n" + "--- \n".repeat(1_000_000) + "z"));
            assertEquals(dashes + "a", format(f, dashes + "a"));
        });
        assertEquals(1_000_002, context.stats().get("lines_removed"));
    }

    @Test
    void datatrovesClassNameIsAnsweredWithTheStep() {
        JobException e = assertThrows(JobException.class,
                () -> StepRegistry.create("SymbolLinesFormatter", new StepArgs("s", new LinkedHashMap<>())));
        assertTrue(e.getMessage().contains("unknown step 'SymbolLinesFormatter' (datatrove's name; here it is"
                + " 'symbol_lines_formatter')"), e.getMessage());
    }

    /**
     * The six corpora of ../shared, document by document, against what Python's re makes of datatrove's pattern
     * (make_symbol_lines_reference.py): the documents changed, the lines removed from each and its text's SHA-1,
     * and per file the SHA-256 of every text.
     */
    @Test
    void everyCorpusAsPythonFormatsIt() throws Exception {
        Path corpus = PythonReference.corpus();
        List<String> reference = PythonReference.lines("symbol_lines_reference.tsv");
        List<String> ours = new ArrayList<>();
        for (String line : reference) {
            String[] fields = line.split("\t");
            if (!fields[0].endsWith(".jsonl.zst")) {
                continue;
            }
            SymbolLinesFormatter f = formatter(Map.of());
            MessageDigest file = MessageDigest.getInstance("SHA-256");
            List<String> changed = new ArrayList<>();
            int docs = 0;
            for (Document doc : JsonlReader.readAll(corpus.resolve(fields[0]))) {
                String text = doc.text();
                long before = context.stats().get("lines_removed");
                String out = format(f, text);
                byte[] utf16 = PythonReference.utf16(out);
                file.update(utf16);
                file.update(new byte[2]);
                if (!out.equals(text)) {
                    String sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(utf16));
                    long removed = context.stats().get("lines_removed") - before;
                    changed.add(docs + "\t" + removed + "\t" + sha1.substring(0, 10));
                }
                docs++;
            }
            ours.add(String.join("\t", fields[0], Integer.toString(docs), Integer.toString(changed.size()),
                    Long.toString(context.stats().get("lines_removed")), fields[4], // how Python formatted them
                    HexFormat.of().formatHex(file.digest())));
            ours.addAll(changed);
        }
        for (int i = 0; i < Math.min(reference.size(), ours.size()); i++) {
            assertEquals(reference.get(i), ours.get(i), "line " + (i + 1) + " of symbol_lines_reference.tsv");
        }
        assertEquals(reference.size(), ours.size());
    }
}
