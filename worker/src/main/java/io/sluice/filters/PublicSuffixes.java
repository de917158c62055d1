package io.sluice.filters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Splits a host name into its registered domain and public suffix, as Python's {@code tldextract}
 * (which datatrove's URL filter uses) does with the ICANN section of the Public Suffix List.
 *
 * <p>The list is the copy every JDK ships for its own cookie and TLS checks
 * ({@code $JAVA_HOME/lib/security/public_suffix_list.dat}: a zip with one entry per top-level domain,
 * each line a rule prefixed by a byte, 0 for ICANN rules, 1 for private ones). So nothing is downloaded;
 * the list is the JDK release's snapshot (tldextract fetches the live one). The stats groups split
 * hosts with {@link io.sluice.stats.DomainParts} instead, against a bundled 2023 snapshot, so that their keys
 * do not depend on the JDK of the node; the two lists differ only in suffixes added or removed since.
 */
final class PublicSuffixes {
    private static volatile PublicSuffixes instance;

    private final Set<String> rules = new HashSet<>();
    private final Set<String> wildcards = new HashSet<>();
    private final Set<String> exceptions = new HashSet<>();

    private PublicSuffixes() {
    }

    static PublicSuffixes get() {
        PublicSuffixes p = instance;
        if (p == null) {
            synchronized (PublicSuffixes.class) {
                if (instance == null) {
                    instance = load(Path.of(System.getProperty("java.home"), "lib", "security", "public_suffix_list.dat"));
                }
                p = instance;
            }
        }
        return p;
    }

    static PublicSuffixes load(Path file) {
        PublicSuffixes p = new PublicSuffixes();
        try (InputStream in = Files.newInputStream(file); ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                String body = new String(zip.readAllBytes(), StandardCharsets.UTF_8);
                for (String line : body.split("\n")) {
                    if (line.length() > 1 && line.charAt(0) == 0) {
                        p.addRule(line.substring(1).trim().toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the JDK's public suffix list " + file + ": " + e.getMessage(), e);
        }
        return p;
    }

    private void addRule(String rule) {
        if (rule.startsWith("!")) {
            exceptions.add(rule.substring(1));
        } else if (rule.startsWith("*.")) {
            wildcards.add(rule.substring(2));
        } else if (!rule.isEmpty()) {
            rules.add(rule);
        }
    }

    /**
     * Number of labels of the host's public suffix; 0 when no rule matches (tldextract: no suffix). Labels in
     * punycode are looked up decoded, as tldextract does: the list holds the Unicode forms ("рф", not "xn--p1ai"),
     * and crawls write hosts in punycode, so every such top-level domain had no suffix and matched no banned domain.
     */
    int suffixLabels(String[] asGiven) {
        int n = asGiven.length;
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            // an invalid one stays as it is, as tldextract keeps a label idna cannot decode
            labels[i] = asGiven[i].startsWith("xn--") ? java.net.IDN.toUnicode(asGiven[i], java.net.IDN.ALLOW_UNASSIGNED) : asGiven[i];
        }
        for (int i = 0; i < n; i++) {
            String candidate = String.join(".", java.util.Arrays.copyOfRange(labels, i, n));
            if (exceptions.contains(candidate)) {
                return n - i - 1;
            }
            if (rules.contains(candidate)) {
                return n - i;
            }
            if (i + 1 < n && wildcards.contains(candidate.substring(labels[i].length() + 1))) {
                return n - i;
            }
        }
        return 0;
    }

    /** A host's fully qualified name and registered domain ("" when it has no known suffix). */
    record Host(String fqdn, String registeredDomain) {
    }

    /** tldextract's view of a URL: host between the scheme and the path, no user info, port or dots around. */
    Host host(String url) {
        String s = url.strip();
        int scheme = s.indexOf("//");
        if (scheme >= 0 && s.substring(0, scheme).matches("(?i)([a-z0-9+.-]+:)?")) {
            s = s.substring(scheme + 2);
        }
        int end = s.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = s.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        s = s.substring(0, end);
        s = s.substring(s.lastIndexOf('@') + 1);
        if (!s.startsWith("[")) {
            int colon = s.indexOf(':');
            if (colon >= 0) {
                s = s.substring(0, colon);
            }
        }
        s = s.toLowerCase(Locale.ROOT).replace('\u3002', '.').replace('\uff0e', '.').replace('\uff61', '.');
        while (s.startsWith(".")) {
            s = s.substring(1);
        }
        while (s.endsWith(".")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.isEmpty()) {
            return new Host("", "");
        }
        String[] labels = s.split("\\.", -1);
        int suffix = suffixLabels(labels);
        if (suffix == 0 || suffix >= labels.length) {
            return new Host("", "");
        }
        String registered = String.join(".", java.util.Arrays.copyOfRange(labels, labels.length - suffix - 1, labels.length));
        return new Host(s, registered);
    }
}
