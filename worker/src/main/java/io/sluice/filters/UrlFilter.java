package io.sluice.filters;

import io.sluice.doc.Document;
import io.sluice.doc.MetadataKey;
import io.sluice.job.StepArgs;
import io.sluice.pipeline.Filter;
import io.sluice.pipeline.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Drops documents by their URL (datatrove's {@code URLFilter}) with lists the job gives: in this order,
 * the registered domain ({@code domain}) or the full host name ({@code subdomain}) is in
 * {@code banned_domains}; the URL is in {@code banned_urls} ({@code url}); a banned word is one of the
 * URL's alphanumeric runs ({@code hard_blacklisted}); at least {@code soft_word_threshold} soft-banned
 * words are ({@code soft_blacklisted}); a banned subword occurs in the URL reduced to lower-case
 * letters and digits ({@code blacklisted_subword}).
 *
 * <p>Keys: {@code banned_domains}, {@code banned_urls}, {@code banned_words}, {@code banned_subwords},
 * {@code soft_banned_words} (lists), each also as {@code <key>_file} (a text file, one entry a line; both are
 * used when both are given; entries starting with '#' are comments, in files and lists alike, as datatrove's
 * {@code parse_list} reads both); {@code soft_word_threshold} 2 (0 drops every document, as in datatrove);
 * {@code url_key} {@code metadata.url} (see {@link MetadataKey}).
 *
 * <p>As in datatrove, URLs are compared as given (trimmed), words are normalised (letters and digits
 * only, lower case) while the URL's words keep their case. Registered domains come from the Public Suffix
 * List the JDK ships ({@link PublicSuffixes}). Deliberate differences: datatrove's bundled adult-site lists
 * are not included (pass your own); a document without a URL is dropped with reason {@code missing_url}
 * instead of failing the task; domain entries are lower-cased (and lose a final dot), as hosts are, where
 * datatrove compares them as given, so that "Example.ORG" in a list never matched anything.
 */
public final class UrlFilter extends Filter {
    private static final Pattern NON_ALNUM = Pattern.compile("[^a-zA-Z0-9]+");

    private final Set<String> bannedDomains;
    private final Set<String> bannedUrls;
    private final Set<String> bannedWords;
    private final Set<String> bannedSubwords;
    private final Set<String> softBannedWords;
    private final long softWordThreshold;
    private final MetadataKey urlKey;
    private boolean warnedMissingUrl;

    public UrlFilter(StepArgs args) {
        super(args);
        bannedDomains = new HashSet<>();
        for (String d : list(args, "banned_domains", false)) {
            String domain = d.toLowerCase(Locale.ROOT);
            bannedDomains.add(domain.endsWith(".") ? domain.substring(0, domain.length() - 1) : domain);
        }
        bannedUrls = list(args, "banned_urls", false);
        bannedWords = list(args, "banned_words", true);
        bannedSubwords = list(args, "banned_subwords", true);
        softBannedWords = list(args, "soft_banned_words", true);
        softWordThreshold = args.integer("soft_word_threshold", 2);
        urlKey = MetadataKey.urlKey(args);
    }

    /** datatrove's {@code normalize}: letters and digits only, lower case. */
    static String normalize(String s) {
        return NON_ALNUM.matcher(s).replaceAll("").toLowerCase(Locale.ROOT);
    }

    private static Set<String> list(StepArgs args, String key, boolean normalize) {
        Set<String> out = new HashSet<>();
        for (String entry : args.strings(key, List.of())) {
            if (!entry.startsWith("#")) {
                add(out, entry, normalize);
            }
        }
        Path file = args.optionalPath(key + "_file", null);
        if (file != null) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (java.nio.charset.CharacterCodingException e) {
                throw args.error(key + "_file", file + " is not UTF-8 text (line " + firstNonUtf8Line(file)
                        + "); save it as UTF-8");
            } catch (IOException e) {
                throw args.error(key + "_file", "cannot be read: " + e);
            }
            for (String line : lines) {
                if (!line.startsWith("#")) {
                    add(out, line, normalize);
                }
            }
        }
        return out;
    }

    /** The number (from 1) of the first line of {@code file} that is not UTF-8, or "?" when it cannot tell. */
    private static String firstNonUtf8Line(Path file) {
        try {
            byte[] b = Files.readAllBytes(file);
            int line = 1;
            int start = 0;
            for (int i = 0; i <= b.length; i++) {
                if (i == b.length || b[i] == '\n') {
                    try {
                        StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b, start, i - start));
                    } catch (java.nio.charset.CharacterCodingException e) {
                        return String.valueOf(line);
                    }
                    line++;
                    start = i + 1;
                }
            }
        } catch (IOException e) {
            // the caller's message stands without a line
        }
        return "?";
    }

    private static void add(Set<String> out, String entry, boolean normalize) {
        String v = normalize ? normalize(entry) : entry.strip();
        if (!v.isEmpty()) {
            out.add(v);
        }
    }

    @Override
    public Verdict filter(Document doc) {
        Object value = urlKey.valueIn(doc);
        String url = value == null ? null : value.toString();
        if (url == null || url.isEmpty()) {
            if (!warnedMissingUrl && ctx != null) {
                warnedMissingUrl = true;
                ctx.log().warn(doc.describe() + " has no URL in metadata '" + urlKey + "'" + urlKey.hintWhereAbsent(doc)
                        + "; documents without one are dropped as missing_url");
            }
            return Verdict.drop("missing_url");
        }
        if (!bannedDomains.isEmpty()) {
            PublicSuffixes.Host host = PublicSuffixes.get().host(url);
            if (!host.registeredDomain().isEmpty() && bannedDomains.contains(host.registeredDomain())) {
                return Verdict.drop("domain");
            }
            if (!host.fqdn().isEmpty() && bannedDomains.contains(host.fqdn())) {
                return Verdict.drop("subdomain");
            }
        }
        if (bannedUrls.contains(url)) {
            return Verdict.drop("url");
        }
        if (!bannedWords.isEmpty() || !softBannedWords.isEmpty() || softWordThreshold <= 0) {
            Set<String> urlWords = new HashSet<>(List.of(NON_ALNUM.split(url)));
            for (String w : bannedWords) {
                if (urlWords.contains(w)) {
                    return Verdict.drop("hard_blacklisted");
                }
            }
            int soft = 0;
            for (String w : softBannedWords) {
                if (urlWords.contains(w)) {
                    soft++;
                }
            }
            if (soft >= softWordThreshold) {
                return Verdict.drop("soft_blacklisted");
            }
        }
        if (!bannedSubwords.isEmpty()) {
            String normalized = normalize(url);
            for (String w : bannedSubwords) {
                if (normalized.contains(w)) {
                    return Verdict.drop("blacklisted_subword");
                }
            }
        }
        return Verdict.KEEP;
    }
}
