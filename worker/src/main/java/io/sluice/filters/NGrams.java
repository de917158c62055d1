package io.sluice.filters;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Word n-grams of one document compared as the strings datatrove builds ({@code sep.join(words[i:i+n])})
 * without building them: an n-gram is a window of the word list, hashed by a polynomial hash of its
 * joined characters and compared character by character. So two windows are equal exactly when their
 * joined strings are, even with no separator, where {@code "ab"+"c"} equals {@code "a"+"bc"}.
 */
final class NGrams {
    private static final long P = 1_000_003L;

    private final List<String> words;
    private final String sep;
    private final long[] wordHash;
    private final long[] wordPow;
    private final int[] wordCodePoints;
    private final long sepHash;
    private final long sepPow;

    NGrams(List<String> words, String sep) {
        this.words = words;
        this.sep = sep;
        int n = words.size();
        wordHash = new long[n];
        wordPow = new long[n];
        wordCodePoints = new int[n];
        for (int i = 0; i < n; i++) {
            String w = words.get(i);
            wordHash[i] = hash(w);
            wordPow[i] = pow(w.length());
            wordCodePoints[i] = PythonText.len(w);
        }
        sepHash = hash(sep);
        sepPow = pow(sep.length());
    }

    private static long hash(String s) {
        long h = 0;
        for (int i = 0; i < s.length(); i++) {
            h = h * P + s.charAt(i);
        }
        return h;
    }

    private static long pow(int len) {
        long p = 1;
        for (int i = 0; i < len; i++) {
            p *= P;
        }
        return p;
    }

    /** Python {@code len} of the joined n-gram starting at word {@code start}. */
    int codePoints(int start, int n) {
        int len = (n - 1) * PythonText.len(sep);
        for (int i = start; i < start + n; i++) {
            len += wordCodePoints[i];
        }
        return len;
    }

    /** One n-gram as a hash-map key; equal when the joined strings are equal. */
    private final class Window {
        final int start;
        final int n;
        final long hash;
        final int chars;

        Window(int start, int n) {
            this.start = start;
            this.n = n;
            long h = 0;
            int c = 0;
            for (int i = start; i < start + n; i++) {
                if (i > start) {
                    h = h * sepPow + sepHash;
                    c += sep.length();
                }
                h = h * wordPow[i] + wordHash[i];
                c += words.get(i).length();
            }
            this.hash = h;
            this.chars = c;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hash);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Window w) || w.hash != hash || w.chars != chars) {
                return false;
            }
            return sameChars(this, w);
        }
    }

    /** Walks both joined strings character by character. */
    private boolean sameChars(Window a, Window b) {
        Cursor ca = new Cursor(a);
        Cursor cb = new Cursor(b);
        for (int k = 0; k < a.chars; k++) {
            if (ca.next() != cb.next()) {
                return false;
            }
        }
        return true;
    }

    private final class Cursor {
        private int word;
        private final int end;
        private String part;
        private int pos;
        private boolean inSep;

        Cursor(Window w) {
            word = w.start;
            end = w.start + w.n;
            part = words.get(word);
        }

        char next() {
            while (pos >= part.length()) {
                if (!inSep && word + 1 < end) {
                    inSep = true;
                    part = sep;
                } else {
                    inSep = false;
                    word++;
                    part = words.get(word);
                }
                pos = 0;
            }
            return part.charAt(pos++);
        }
    }

    /**
     * datatrove's {@code find_top_duplicate}: code-point length of the most frequent n-gram times its
     * count; ties in count go to the n-gram seen first ({@code Counter.most_common(1)}). 0 when there is
     * no n-gram.
     */
    long topDuplicateChars(int n) {
        int windows = words.size() - n + 1;
        if (windows <= 0) {
            return 0;
        }
        Map<Window, int[]> counts = new HashMap<>();
        Window best = null;
        int bestCount = 0;
        int bestFirst = Integer.MAX_VALUE;
        for (int i = 0; i < windows; i++) {
            Window w = new Window(i, n);
            int[] c = counts.computeIfAbsent(w, k -> new int[] {0, k.start});
            c[0]++;
            if (c[0] > bestCount || (c[0] == bestCount && c[1] < bestFirst)) {
                bestCount = c[0];
                bestFirst = c[1];
                best = w;
            }
        }
        return (long) codePoints(bestFirst, n) * bestCount;
    }

    /**
     * datatrove's {@code find_all_duplicate}: a greedy scan that adds an n-gram's length each time it
     * was seen before and then jumps {@code n} words ahead.
     */
    long allDuplicateChars(int n) {
        int total = words.size();
        Set<Window> seen = new HashSet<>();
        long repeated = 0;
        int i = 0;
        while (i < total - n + 1) {
            Window w = new Window(i, n);
            if (seen.contains(w)) {
                repeated += codePoints(i, n);
                i += n;
            } else {
                seen.add(w);
                i++;
            }
        }
        return repeated;
    }
}
