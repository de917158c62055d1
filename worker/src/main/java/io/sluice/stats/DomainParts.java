package io.sluice.stats;

import io.sluice.text.PyText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The host of a URL split tldextract-style against the ICANN section of the Public Suffix List
 * (private domains such as blogspot.com excluded, as datatrove's default {@code TLDExtract()}):
 * {@code forums.bbc.co.uk} has suffix {@code co.uk} and fqdn {@code forums.bbc.co.uk}; a host without a
 * registrable domain (an IP address, {@code localhost}, a bare suffix) has an empty fqdn.
 *
 * <p>Why a bundled list rather than a library: the ICANN rules are 84 kB of text (resource
 * {@code public_suffix_icann.dat}, MPL 2.0, snapshot named in its header), the matching is 40 lines,
 * and the only well-kept Java implementation (Guava's InternetDomainName) would pull in all of Guava.
 * url_filter uses the JDK's own copy of the list ({@code io.sluice.filters.PublicSuffixes}), fresher; this
 * snapshot is fixed so that a key never depends on the JDK a rank ran on: ranks on nodes with two JDKs would
 * otherwise split one host two ways, and the merge would count it under two keys.
 */
public final class DomainParts {
    /** One extracted URL: suffix ({@code co.uk}) and fully qualified domain ({@code www.bbc.co.uk}). */
    public record Split(String subdomain, String domain, String suffix) {
        public String fqdn() {
            if (suffix.isEmpty() || domain.isEmpty()) {
                return "";
            }
            return subdomain.isEmpty() ? domain + "." + suffix : subdomain + "." + domain + "." + suffix;
        }
    }

    private static final class Node {
        final Map<String, Node> children = new HashMap<>();
        boolean end;
    }

    private static final Node ROOT = load();
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z0-9+\\-.]+");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private DomainParts() {
    }

    public static Split split(String url) {
        String host = hostOf(url);
        if (host.length() >= 4 && host.startsWith("[") && host.endsWith("]")) {
            return new Split("", host, ""); // IPv6 literal
        }
        host = host.replace('\u3002', '.').replace('\uff0e', '.').replace('\uff61', '.');
        String[] labels = host.split("\\.", -1);
        int suffixIndex = suffixIndex(labels);
        if (suffixIndex == labels.length && labels.length == 4 && isIpv4(host)) {
            return new Split("", host, "");
        }
        String suffix = suffixIndex == labels.length ? "" : String.join(".", slice(labels, suffixIndex, labels.length));
        String subdomain = suffixIndex >= 2 ? String.join(".", slice(labels, 0, suffixIndex - 1)) : "";
        String domain = suffixIndex > 0 ? labels[suffixIndex - 1] : "";
        return new Split(subdomain, domain, suffix);
    }

    /** The host part: scheme, path, query, fragment, user info, port and trailing dots removed. */
    static String hostOf(String url) {
        String rest = schemeless(url);
        rest = cutAt(cutAt(cutAt(rest, '/'), '?'), '#');
        rest = rest.substring(rest.lastIndexOf('@') + 1);
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close >= 0) {
                return rest.substring(0, close + 1);
            }
        }
        String host = PyText.strip(cutAt(rest, ':'));
        int end = host.length();
        while (end > 0 && ".\u3002\uff0e\uff61".indexOf(host.charAt(end - 1)) >= 0) {
            end--;
        }
        return host.substring(0, end);
    }

    private static String schemeless(String url) {
        int slashes = url.indexOf("//");
        if (slashes == 0) {
            return url.substring(2);
        }
        if (slashes < 2 || url.charAt(slashes - 1) != ':' || !SCHEME.matcher(url.substring(0, slashes - 1)).matches()) {
            return url;
        }
        return url.substring(slashes + 2);
    }

    private static String cutAt(String s, char c) {
        int i = s.indexOf(c);
        return i < 0 ? s : s.substring(0, i);
    }

    private static boolean isIpv4(String host) {
        var m = IPV4.matcher(host);
        if (!m.matches()) {
            return false;
        }
        for (int g = 1; g <= 4; g++) {
            if (Integer.parseInt(m.group(g)) > 255) {
                return false;
            }
        }
        return true;
    }

    private static String[] slice(String[] a, int from, int to) {
        String[] out = new String[to - from];
        System.arraycopy(a, from, out, 0, out.length);
        return out;
    }

    /** Index of the first label of the public suffix; labels.length when there is none. */
    private static int suffixIndex(String[] labels) {
        Node node = ROOT;
        int i = labels.length;
        int j = labels.length;
        for (int k = labels.length - 1; k >= 0; k--) {
            String label = decode(labels[k]);
            Node child = node.children.get(label);
            if (child != null) {
                j--;
                node = child;
                if (node.end) {
                    i = j;
                }
                continue;
            }
            if (node.children.containsKey("*")) {
                return node.children.containsKey("!" + label) ? j : j - 1;
            }
            break;
        }
        return i;
    }

    private static String decode(String label) {
        String lower = label.toLowerCase(Locale.ROOT);
        return lower.startsWith("xn--") ? IDN.toUnicode(lower, IDN.ALLOW_UNASSIGNED) : lower;
    }

    private static Node load() {
        Node root = new Node();
        try (InputStream in = DomainParts.class.getResourceAsStream("public_suffix_icann.dat")) {
            if (in == null) {
                throw new IllegalStateException("resource public_suffix_icann.dat is missing from the jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("//")) {
                    continue;
                }
                String[] labels = line.split("\\.");
                Node node = root;
                for (int k = labels.length - 1; k >= 0; k--) {
                    node = node.children.computeIfAbsent(labels[k], x -> new Node());
                }
                node.end = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return root;
    }
}
