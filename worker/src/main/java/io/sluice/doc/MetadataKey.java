package io.sluice.doc;

import io.sluice.job.StepArgs;
import java.util.Map;

/**
 * A metadata value named the way job files name it: a key ({@code url}), the same with datatrove's
 * {@code metadata.} prefix ({@code metadata.url}), or a dotted path into nested metadata
 * ({@code source.url}, or {@code metadata.metadata.url} for Dolma's nested metadata). One reading for
 * every step that takes such a key, so {@code url_key} means the same in {@code url_filter} and in the
 * statistics blocks.
 */
public final class MetadataKey {
    private static final String PREFIX = "metadata.";

    private final String spec;
    private final String key;
    private final String[] path;

    private MetadataKey(String spec, String key) {
        this.spec = spec;
        this.key = key;
        this.path = key.split("\\.");
    }

    /** A step's {@code url_key} (default {@code metadata.url}), checked. */
    public static MetadataKey urlKey(StepArgs args) {
        try {
            return of(args.string("url_key", "metadata.url"));
        } catch (IllegalArgumentException e) {
            throw args.error("url_key", e.getMessage());
        }
    }

    /** @throws IllegalArgumentException when {@code spec} names no key */
    public static MetadataKey of(String spec) {
        String key = spec.startsWith(PREFIX) ? spec.substring(PREFIX.length()) : spec;
        if (key.isEmpty() || key.startsWith(".") || key.endsWith(".")) {
            throw new IllegalArgumentException("must name a metadata key, such as url or metadata.url, got '" + spec + "'");
        }
        return new MetadataKey(spec, key);
    }

    /** The value in {@code doc}'s metadata, or null when absent. */
    public Object valueIn(Document doc) {
        Object v = doc.metadataValue(key); // a flat key, dots and all; asks for no parse when absent
        if (v != null || path.length == 1 || !doc.mayHaveMetadataKey(path[path.length - 1])
                || doc.metadataValue(path[0]) == null) {
            return v;
        }
        Object node = doc.metadata();
        for (String part : path) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(part);
        }
        return node;
    }

    /**
     * For a message about a document where this key is absent: where the same last key sits in the
     * document's nested metadata (Dolma keeps its URL at {@code metadata.metadata.url}), as a hint to set
     * the step's key to it; empty when there is no such place.
     */
    public String hintWhereAbsent(Document doc) {
        String last = path[path.length - 1];
        if (!doc.mayHaveMetadataKey(last)) {
            return "";
        }
        String found = find(doc.metadata(), last, "metadata", 0);
        return found == null ? "" : " (it has '" + found + "': set the step's key to that)";
    }

    private static String find(Object node, String key, String at, int depth) {
        if (!(node instanceof Map<?, ?> m) || depth > 3) {
            return null;
        }
        if (m.get(key) != null && depth > 0) {
            return at + "." + key;
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String found = find(e.getValue(), key, at + "." + e.getKey(), depth + 1);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return spec;
    }
}
