package io.sluice.text;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixed set of words (stop words, say) asked about a region of a text, so the question costs no
 * substring. Each word has an index, its position in the list given.
 */
public final class WordSet {
    private final RegionMap<Integer> index;
    private final int size;

    public WordSet(List<String> words) {
        Map<String, Integer> m = new HashMap<>();
        for (String w : words) {
            m.putIfAbsent(w, m.size());
        }
        index = new RegionMap<>(m);
        size = m.size();
    }

    /** The index of {@code text[from:to]} in the set, or -1. */
    public int indexOf(String text, int from, int to) {
        Integer i = index.get(text, from, to);
        return i == null ? -1 : i;
    }

    public boolean contains(String text, int from, int to) {
        return index.get(text, from, to) != null;
    }

    /** {@link #contains(String, int, int)} given the region's {@code String.hashCode}, saving a pass over it. */
    public boolean contains(String text, int from, int to, int stringHash) {
        return index.get(text, from, to, stringHash) != null;
    }

    /** {@link #contains(String, int, int, int)} for a region of a char array. */
    public boolean contains(char[] text, int from, int to, int stringHash) {
        return index.get(text, from, to, stringHash) != null;
    }

    /** Number of distinct words. */
    public int size() {
        return size;
    }
}
