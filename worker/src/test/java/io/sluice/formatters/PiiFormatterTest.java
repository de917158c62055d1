package io.sluice.formatters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.io.JsonlReader;
import io.sluice.io.TestFiles;
import io.sluice.job.JobException;
import io.sluice.job.JobFile;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.StepContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PiiFormatterTest {
    @TempDir
    Path tmp;

    /** The context of the formatter made last. */
    private StepContext context;

    private PiiFormatter formatter(Map<String, Object> args) throws IOException {
        PiiFormatter f = new PiiFormatter(new StepArgs("pii_formatter", new LinkedHashMap<>(args)));
        context = StepContext.standalone("pii_formatter", tmp);
        f.open(context);
        return f;
    }

    private static List<String> format(PiiFormatter f, String... texts) throws IOException {
        List<String> out = new ArrayList<>();
        for (String text : texts) {
            f.process(new Document("d", text, null), d -> out.add(d.text()));
        }
        return out;
    }

    @Test
    void replacesAddressesInTurnThroughTheRank() throws IOException {
        PiiFormatter f = formatter(Map.of());
        assertEquals(List.of(
                        "write to email@example.com or [x]firstname.lastname@example.org, from 22.214.171.124",
                        "again email@example.com; 126.96.36.199 and 188.8.131.52"),
                format(f, "write to jane.doe@mail.example.net or [x]bob+tag@host.co.uk, from 8.8.8.8",
                        "again alice@a.org; 1.1.1.1 and 93.184.216.34"));
        assertEquals(3, ctx(f).get("emails_replaced"));
        assertEquals(3, ctx(f).get("ips_replaced"));
        assertEquals(2, ctx(f).get("formatted"));
    }

    /** What datatrove's patterns, read by Python, leave alone. */
    @Test
    void leavesWhatPythonWouldNotMatchOrNotTake() throws IOException {
        PiiFormatter f = formatter(Map.of());
        List<String> kept = List.of(
                "Jane@Example.com",             // no ignore-case flag: upper case is not matched
                "10.0.0.1 192.168.1.20 127.0.0.1 172.16.4.4 100.64.1.1 169.254.0.7 0.1.2.3 240.1.1.1 255.255.255.255",
                "192.0.2.1 198.51.100.7 203.0.113.9 198.18.0.1 192.0.0.170", // documentation, benchmarking, IETF
                "8.8.08.8 010.1.1.1",           // a leading zero: ipaddress refuses the address
                "no at sign here");
        for (String text : kept) {
            assertEquals(List.of(text), format(f, text));
        }
        assertEquals(0, ctx(f).get("formatted"));
        // global, though inside 192.0.0.0/24; and in a longer number the match re.sub finds ("1.2.3.45")
        assertEquals(List.of("22.214.171.124 and 126.96.36.19964"), format(f, "192.0.0.9 and 1.2.3.4564"));
    }

    /**
     * Python's word characters, not Java's: a combining mark is none (Java's \\b saw one), "²" is one (Java's
     * did not); and an address of 300,000 labels is matched (Java's regex engine overflowed the stack).
     */
    @Test
    void wordBoundariesArePythonsAndLongAddressesDoNotOverflow() throws IOException {
        PiiFormatter f = formatter(Map.of("email_replacement", "<E>"));
        assertEquals(List.of("नमस्ते<E>", "m²info@example.com", "Ⓐ?<E>", "x <E>"),
                format(f, "नमस्तेinfo@example.com", "m²info@example.com", "Ⓐ?b@c.de",
                        "x " + "a.".repeat(300_000) + "a@b.c"));
        assertEquals(List.of("x <E>-."), format(f, "x b@" + "c.".repeat(300_000) + "c-.")); // as Python: the last label stops at its '-'

    }

    @Test
    void keysTurnEachPartOffOrGiveTheirOwnReplacements() throws IOException {
        assertEquals(List.of("a@b.io X and X"),
                format(formatter(Map.of("remove_emails", false, "only_remove_public_ips", false, "ip_replacement", "X")),
                        "a@b.io 10.0.0.1 and 8.8.8.8"));
        assertEquals(List.of("<1> <2> <1> 8.8.8.8"),
                format(formatter(Map.of("remove_ips", false, "email_replacement", List.of("<1>", "<2>"))),
                        "a@b.io c@d.io e@f.io 8.8.8.8"));
        JobException e = assertThrows(JobException.class, () -> formatter(Map.of("ip_replacement", List.of())));
        assertEquals("pii_formatter: 'ip_replacement' is empty: give a replacement (a string, or a list to use in turn)", e.getMessage());
    }

    /**
     * The six corpora of ../shared (87,460 addresses and 17,215 IP addresses in the e-mail corpus alone), each file
     * one rank, against what Python's re and ipaddress make of datatrove's patterns (make_pii_reference.py).
     */
    @Test
    void everyCorpusAsPythonFormatsIt() throws Exception {
        Path corpus = PythonReference.corpus();
        List<String> reference = PythonReference.lines("pii_reference.tsv");
        List<String> ours = new ArrayList<>();
        for (String line : reference) {
            String file = line.split("\t")[0];
            PiiFormatter f = formatter(Map.of());
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            int[] docs = new int[1];
            for (Document doc : JsonlReader.readAll(corpus.resolve(file))) {
                docs[0]++;
                f.process(doc, d -> digest.update(PythonReference.utf16(d.text() + "\0")));
            }
            ours.add(String.join("\t", file, Integer.toString(docs[0]), Long.toString(ctx(f).get("formatted")),
                    Long.toString(ctx(f).get("emails_replaced")), Long.toString(ctx(f).get("ips_replaced")),
                    HexFormat.of().formatHex(digest.digest())));
        }
        assertEquals(reference, ours);
    }

    /** In a job: the rewritten documents are written anew, the others as read, and the counts reach stats.json. */
    @Test
    void aJobWritesTheFormattedDocuments() throws IOException {
        TestFiles.write(tmp.resolve("in/a.jsonl"), TestFiles.doc("a", "mail me at me@home.org") + "\n"
                + "{\"text\": \"nothing here\", \"id\": \"b\", \"metadata\": {\"x\": 1}}\n");
        Path job = tmp.resolve("job.yaml");
        Files.writeString(job, """
                logging_dir: ROOT/logs
                stages:
                  - name: clean
                    steps:
                      - read_jsonl: {path: ROOT/in}
                      - pii_formatter: {}
                      - write_jsonl: {path: ROOT/out, compression: none}
                """.replace("ROOT", tmp.toString()));
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        assertTrue(new io.sluice.exec.LocalExecutor(JobFile.load(job), new PrintStream(console, true)).run(null), console.toString());
        List<String> lines = Files.readAllLines(tmp.resolve("out/00000.jsonl"));
        assertTrue(lines.get(0).contains("\"text\":\"mail me at email@example.com\""), lines.get(0));
        assertEquals("{\"text\": \"nothing here\", \"id\": \"b\", \"metadata\": {\"x\": 1}}", lines.get(1));
        String stats = Files.readString(tmp.resolve("logs/clean/stats.json"));
        assertTrue(stats.contains("\"emails_replaced\" : 1") && stats.contains("\"formatted\" : 1"), stats);
    }

    private io.sluice.pipeline.StepStats ctx(PiiFormatter f) {
        return context.stats();
    }
}
