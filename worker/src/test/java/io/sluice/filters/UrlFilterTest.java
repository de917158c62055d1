package io.sluice.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.doc.Document;
import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.ProgressCounter;
import io.sluice.pipeline.StepContext;
import io.sluice.pipeline.StepStats;
import io.sluice.pipeline.TaskLog;
import io.sluice.pipeline.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UrlFilterTest {
    private static String decide(Map<String, Object> args, String url) {
        UrlFilter f = new UrlFilter(StepArgs.of(args));
        Map<String, Object> meta = new HashMap<>();
        if (url != null) {
            meta.put("url", url);
        }
        Verdict v = f.filter(new Document("d", "text", meta));
        return v.keep() ? "keep" : v.reason();
    }

    @Test
    void registeredDomainAndSubdomainUseThePublicSuffixList() {
        Map<String, Object> args = Map.of("banned_domains", List.of("bad.co.uk", "www.example.com"));
        assertEquals("domain", decide(args, "https://news.bad.co.uk/page?x=1"));
        assertEquals("domain", decide(args, "http://user@BAD.co.uk:8080/"));
        assertEquals("subdomain", decide(args, "https://www.example.com/a"));
        assertEquals("keep", decide(args, "https://example.com/a"));
        // co.uk is a public suffix: "co.uk" alone is nobody's registered domain
        assertEquals("keep", decide(Map.of("banned_domains", List.of("co.uk")), "https://bad.co.uk/"));
        // a top-level domain in punycode (.рф) is found in the list, which holds its Unicode form, as tldextract
        // finds it: before, such hosts had no registered domain and were never banned
        Map<String, Object> rf = Map.of("banned_domains", List.of("xn--e1afmkfd.xn--p1ai", "www.xn--80ak6aa92e.com"));
        assertEquals("domain", decide(rf, "http://xn--e1afmkfd.xn--p1ai/page"));
        assertEquals("domain", decide(rf, "http://sub.XN--E1AFMKFD.xn--p1ai/"));
        assertEquals("subdomain", decide(rf, "https://www.xn--80ak6aa92e.com/"));
        assertEquals("keep", decide(rf, "http://xn--p1ai/"), "a bare suffix is nobody's domain");
        assertEquals("keep", decide(rf, "http://xn--zz-broken.xn--p1ai-broken/"));
    }

    /** datatrove's parse_list: '#' entries are comments in a list given in the job file too; a threshold of 0 drops all. */
    @Test
    void commentEntriesAndAZeroSoftThresholdAsDatatrove() {
        assertEquals("keep", decide(Map.of("banned_words", List.of("#foo")), "http://example.com/foo"));
        assertEquals("hard_blacklisted", decide(Map.of("banned_words", List.of("#foo", "foo")), "http://example.com/foo"));
        assertEquals("soft_blacklisted", decide(Map.of("soft_word_threshold", 0), "http://example.com/anything"));
        assertEquals("keep", decide(Map.of("soft_word_threshold", 1), "http://example.com/anything"));
    }

    @Test
    void domainEntriesAreCaseInsensitiveAndAListFileThatIsNotUtf8IsNamed(@TempDir Path dir) throws IOException {
        // before, "EXAMPLE.co.uk" never matched: hosts are lower-cased, list entries were not
        Map<String, Object> args = Map.of("banned_domains", List.of("EXAMPLE.co.uk", "Www.Other.ORG."));
        assertEquals("domain", decide(args, "https://sub.example.co.uk/x"));
        assertEquals("subdomain", decide(args, "https://www.other.org/"));
        // before: "cannot be read: java.nio.charset.MalformedInputException: Input length = 1"
        Path latin1 = dir.resolve("words.txt");
        Files.write(latin1, "casino\nsoir\u00e9e\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        io.sluice.job.JobException e = org.junit.jupiter.api.Assertions.assertThrows(io.sluice.job.JobException.class,
                () -> new UrlFilter(StepArgs.of(Map.of("banned_words_file", latin1.toString()))));
        assertTrue(e.getMessage().endsWith("'banned_words_file' " + latin1 + " is not UTF-8 text (line 2); save it as UTF-8"),
                e.getMessage());
    }

    @Test
    void urlsWordsSoftWordsAndSubwordsInDatatrovesOrder() {
        Map<String, Object> args = Map.of(
                "banned_urls", List.of("https://a.com/x"),
                "banned_words", List.of("casino"),
                "soft_banned_words", List.of("free", "bonus", "win"),
                "banned_subwords", List.of("xxx"));
        assertEquals("url", decide(args, "https://a.com/x"));
        assertEquals("hard_blacklisted", decide(args, "https://a.com/best-casino/"));
        // the URL's words keep their case, so an upper-case word is not the banned word
        assertEquals("keep", decide(args, "https://a.com/best-CASINO/"));
        assertEquals("soft_blacklisted", decide(args, "https://a.com/free_bonus"));
        assertEquals("keep", decide(args, "https://a.com/free-stuff"));
        assertEquals("blacklisted_subword", decide(args, "https://a.com/hotXXXvideos"));
        assertEquals("missing_url", decide(args, null));
    }

    @Test
    void listsFromFilesAndANestedUrlKey(@TempDir Path dir) throws IOException {
        Path domains = dir.resolve("domains.txt");
        Files.writeString(domains, "# adult sites\nbad.org\n\n");
        Map<String, Object> args = Map.of("banned_domains_file", domains.toString(), "url_key", "metadata.metadata.url");
        UrlFilter f = new UrlFilter(StepArgs.of(args));
        Map<String, Object> meta = new HashMap<>(Map.of("metadata", Map.of("url", "http://www.bad.org/")));
        assertEquals("domain", f.filter(new Document("d", "t", meta)).reason());
        assertTrue(f.filter(new Document("d", "t", new HashMap<>(Map.of("metadata", Map.of("url", "http://good.org/"))))).keep());
    }

    private static StepContext contextLoggingTo(ByteArrayOutputStream log, Path dir) {
        return new StepContext(0, 1, new StepStats("test"), TaskLog.toStream(new PrintStream(log, true)), dir,
                new ProgressCounter());
    }

    @Test
    void documentsWithoutAUrlAreDroppedCountedAndTheFirstIsLogged(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        StepContext ctx = contextLoggingTo(log, dir);
        UrlFilter f = new UrlFilter(StepArgs.of(Map.of("banned_domains", List.of("bad.org"))));
        f.open(ctx);
        List<String> kept = new java.util.ArrayList<>();
        f.process(new Document("a", "t", new HashMap<>()), d -> kept.add(d.id()));
        f.process(new Document("b", "t", new HashMap<>(Map.of("url", "https://good.org/"))), d -> kept.add(d.id()));
        f.process(new Document("c", "t", new HashMap<>(Map.of("source", "x"))), d -> kept.add(d.id()));
        assertEquals(List.of("b"), kept);
        assertEquals(2, ctx.stats().get("dropped_missing_url"));
        String warnings = log.toString();
        assertTrue(warnings.contains("document 'a' has no URL in metadata 'metadata.url'"), warnings);
        assertEquals(1, warnings.split("has no URL", -1).length - 1, warnings);
    }

    @Test
    void theWarningAboutAMissingUrlSaysWhereANestedOneIs(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        StepContext ctx = contextLoggingTo(log, dir);
        UrlFilter f = new UrlFilter(StepArgs.of(Map.of("banned_domains", List.of("bad.org"))));
        f.open(ctx);
        // Dolma's layout: the URL is in the line's metadata object, which datatrove reads as metadata.metadata
        Map<String, Object> dolma = new HashMap<>(Map.of("metadata", Map.of("url", "http://good.org/", "lang", "en")));
        f.process(new Document("d", "t", dolma), d -> { });
        assertTrue(log.toString().contains("document 'd' has no URL in metadata 'metadata.url' (it has"
                + " 'metadata.metadata.url': set the step's key to that); documents without one are dropped"), log.toString());
    }

    @Test
    void anUnreadableListFileNamesTheKey() {
        JobException e = assertThrows(JobException.class,
                () -> new UrlFilter(StepArgs.of(Map.of("banned_words_file", "/nonexistent/words.txt"))));
        assertTrue(e.getMessage().contains("banned_words_file"), e.getMessage());
    }
}
