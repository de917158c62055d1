package io.sluice.stats;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.io.PyJson;
import io.sluice.pipeline.MetricStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One statistic split by key (the histogram bin, the domain, or just "summary"): key to
 * {@link MetricStats}, in insertion order like the Python dict datatrove writes.
 */
public final class MetricStatsDict {
    /** datatrove's default number of keys kept for the high-cardinality groups (fqdn, suffix). */
    public static final int DEFAULT_TOP_K = 100_000;

    private final LinkedHashMap<String, MetricStats> entries = new LinkedHashMap<>();

    /** The stats under {@code key}, created empty on first use. */
    public MetricStats get(String key) {
        MetricStats s = entries.get(key);
        if (s == null) {
            s = new MetricStats();
            entries.put(key, s);
        }
        return s;
    }

    /** Sets the stats under {@code key} (kept, not copied). */
    public void put(String key, MetricStats stats) {
        entries.put(key, stats);
    }

    public MetricStats getOrNull(String key) {
        return entries.get(key);
    }

    public Map<String, MetricStats> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    public void merge(MetricStatsDict other) {
        for (Map.Entry<String, MetricStats> e : other.entries.entrySet()) {
            get(e.getKey()).merge(e.getValue());
        }
    }

    /**
     * The {@code k} keys with the largest count n, largest first; ties keep insertion order (Python's
     * {@code heapq.nlargest}, which is a stable sort).
     */
    public List<String> topKeys(int k) {
        List<String> keys = new ArrayList<>(entries.keySet());
        keys.sort(Comparator.comparingLong((String key) -> entries.get(key).n()).reversed());
        return keys.size() > k ? new ArrayList<>(keys.subList(0, k)) : keys;
    }

    /** A new dict holding only {@code keys}, in that order (keys absent here are left out). */
    public MetricStatsDict select(List<String> keys) {
        MetricStatsDict out = new MetricStatsDict();
        for (String key : keys) {
            MetricStats s = entries.get(key);
            if (s != null) {
                out.entries.put(key, s);
            }
        }
        return out;
    }

    /** datatrove's {@code MetricStatsDict.to_dict()} as {@code json.dumps} writes it. */
    public String toJson() {
        return toJson(false);
    }

    /** @param lossless see {@link MetricStats#appendJson}: per-rank files keep every count exactly */
    String toJson(boolean lossless) {
        StringBuilder sb = new StringBuilder(64 + entries.size() * 48);
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, MetricStats> e : entries.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            PyJson.appendString(sb, e.getKey());
            sb.append(": ");
            e.getValue().appendJson(sb, lossless);
        }
        return sb.append('}').toString();
    }

    /** Reads a JSON object of key to metric; the message of the exception names the bad key. */
    public static MetricStatsDict fromJson(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("expected an object of key to metric, got " + node.getNodeType());
        }
        MetricStatsDict out = new MetricStatsDict();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                // as read, not merged into an empty one: a file's values then go through Chan's formula once, in
                // the merge, as datatrove's do (twice turned a variance past 1e308 into NaN where it gives inf)
                out.put(e.getKey(), MetricStats.fromJson(e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("key '" + e.getKey() + "': " + ex.getMessage(), ex);
            }
        }
        return out;
    }
}
