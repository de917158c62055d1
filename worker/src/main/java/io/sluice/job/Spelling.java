package io.sluice.job;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * "Did you mean" for names in job files: the known name a datatrove argument name stands for, or the closest
 * known name when it is close enough to be a typo.
 */
final class Spelling {
    /** datatrove's argument names that Sluice's job files spell differently. */
    private static final Map<String, String> DATATROVE_NAMES = Map.of(
            "output_folder", "output", "input_folder", "input", "groups_to_compute", "groups",
            "regex_exp", "regex", "extra_domains", "banned_domains", "extra_urls", "banned_urls",
            "save_cluster_id", "cluster_metadata", "top_k_config", "top_k", "use_64bit_hashes", "precision",
            "hash_config", "precision");

    private Spelling() {
    }

    /**
     * The name datatrove's {@code word} has here, if {@code known} holds it; else {@code " (did you mean
     * 'NAME'?)"} for the known name nearest to {@code word} (edit distance, an adjacent swap counting once)
     * if it is within a third of the word's length; else "".
     */
    static String didYouMean(String word, Iterable<String> known) {
        String ours = DATATROVE_NAMES.get(word);
        if (ours != null) {
            for (String k : known) {
                if (k.equals(ours)) {
                    return " (datatrove's name; here it is '" + ours + "')";
                }
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(word.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance > 0 && bestDistance <= Math.max(1, word.length() / 3)
                ? " (did you mean '" + best + "'?)" : "";
    }

    /** {@code " (given as datatrove's 'NAME')"} when {@code given} holds datatrove's name for {@code key}, else "". */
    static String datatroveSpellingOf(String key, Set<String> given) {
        for (String name : given) {
            if (key.equals(DATATROVE_NAMES.get(name))) {
                return " (given as datatrove's '" + name + "')";
            }
        }
        return "";
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
