package io.sluice.filters;

import io.sluice.text.WordSpans;

/**
 * Word n-grams of one document compared as the strings datatrove builds ({@code sep.join(words[i:i+n])})
 * without building them: an n-gram is a window of the word list, hashed by a polynomial hash of its
 * joined characters and, when hashes match, compared character by character. So two windows are equal
 * exactly when their joined strings are, even with no separator, where {@code "ab"+"c"} equals
 * {@code "a"+"bc"}. Windows live in an open-addressing table of ints: no object per n-gram.
 */
final class NGrams {
    private static final long P = 1_000_003L;

    private final WordSpans words;
    private final String text;
    private final String sep;
    private final long[] wordHash;
    private final long[] wordPow;
    /** charStart[i]: UTF-16 length of words 0..i-1 (without separators). */
    private final int[] charStart;
    /** Whether some word holds a character of a surrogate pair, so that its code points are fewer than its chars. */
    private final boolean surrogates;
    private final long sepHash;
    private final long sepPow;
    /**
     * windowHash[i]: hash of the window of {@link #windowWords} words starting at word i. The filter asks
     * for n = 2, 3, 4 (or 5..10) in turn, so each size's hashes extend the previous size's by one word
     * instead of re-hashing whole windows.
     */
    private long[] windowHash;
    private int windowWords;
    private int[] candidates;

    NGrams(WordSpans words, String sep) {
        this.words = words;
        this.text = words.text();
        this.sep = sep;
        int n = words.size();
        wordHash = new long[n];
        wordPow = new long[n];
        charStart = new int[n + 1];
        int orAll = 0;
        for (int i = 0; i < n; i++) {
            int start = words.start(i);
            int end = words.end(i);
            long h = 0;
            long p = 1;
            for (int k = start; k < end; k++) {
                char c = text.charAt(k);
                h = h * P + c;
                p *= P;
                orAll |= c;
            }
            wordHash[i] = h;
            wordPow[i] = p;
            charStart[i + 1] = charStart[i] + (end - start);
        }
        surrogates = orAll >= Character.MIN_SURROGATE; // below it no char is part of a pair
        sepHash = hashOf(sep);
        sepPow = powerOf(sep);
    }

    /** The same words joined with another separator, sharing the per-word tables (built once per text). */
    private NGrams(NGrams other, String sep) {
        this.words = other.words;
        this.text = other.text;
        this.sep = sep;
        this.wordHash = other.wordHash;
        this.wordPow = other.wordPow;
        this.charStart = other.charStart;
        this.surrogates = other.surrogates;
        this.sepHash = hashOf(sep);
        this.sepPow = powerOf(sep);
    }

    /** Room for a window list; one array serves every size asked of these n-grams (sizes are asked one at a time). */
    private int[] candidates() {
        if (candidates == null) {
            candidates = new int[words.size()];
        }
        return candidates;
    }

    NGrams withSeparator(String newSep) {
        return new NGrams(this, newSep);
    }

    private static long hashOf(String s) {
        long h = 0;
        for (int k = 0; k < s.length(); k++) {
            h = h * P + s.charAt(k);
        }
        return h;
    }

    private static long powerOf(String s) {
        long p = 1;
        for (int k = 0; k < s.length(); k++) {
            p *= P;
        }
        return p;
    }

    /** Python {@code len} of the joined n-gram starting at word {@code start}. */
    long codePoints(int start, int n) {
        long wordCodePoints = 0;
        if (surrogates) {
            for (int i = start; i < start + n; i++) {
                wordCodePoints += text.codePointCount(words.start(i), words.end(i));
            }
        } else {
            wordCodePoints = charStart[start + n] - charStart[start];
        }
        return wordCodePoints + (long) (n - 1) * sep.codePointCount(0, sep.length());
    }

    private long chars(int start, int n) {
        return charStart[start + n] - charStart[start] + (long) (n - 1) * sep.length();
    }

    /**
     * The hashes of all windows of n words (n &gt;= 1), where hash(w0 sep w1 ... sep wk) is the polynomial
     * hash of those joined characters: ((h(w0) P^|sep| + h(sep)) P^|w1| + h(w1)) ...
     */
    private long[] windowHashes(int n) {
        if (windowHash == null || windowWords > n) {
            windowHash = wordHash.clone();
            windowWords = 1;
        }
        // extend in place: window i of k+1 words is window i of k words followed by word i+k
        for (int k = windowWords; k < n; k++) {
            for (int i = 0; i < words.size() - k; i++) {
                windowHash[i] = (windowHash[i] * sepPow + sepHash) * wordPow[i + k] + wordHash[i + k];
            }
        }
        windowWords = n;
        return windowHash;
    }

    /** True when the joined strings of windows a and b (both n words) are equal. */
    private boolean same(int a, int b, int n) {
        if (a == b) {
            return true;
        }
        long len = chars(a, n);
        if (len != chars(b, n)) {
            return false;
        }
        // Fast path, word by word: while corresponding words have equal lengths the joined strings stay
        // aligned, so an unequal pair decides "different" and all pairs equal decide "same".
        for (int k = 0; k < n; k++) {
            if (words.length(a + k) != words.length(b + k)) {
                return sameChars(a, b, n, len); // split differently, e.g. "ab"+"c" and "a"+"bc"
            }
            if (!words.sameWord(a + k, b + k)) {
                return false;
            }
        }
        return true;
    }

    private boolean sameChars(int a, int b, int n, long len) {
        Cursor ca = new Cursor(a, n);
        Cursor cb = new Cursor(b, n);
        for (long k = 0; k < len; k++) {
            if (ca.next() != cb.next()) {
                return false;
            }
        }
        return true;
    }

    /** Walks one window's joined string: word, separator, word, ... */
    private final class Cursor {
        private int word;
        private final int end;
        private String part; // the text (inside a word) or the separator
        private int pos;
        private int limit;
        private boolean inSep;

        Cursor(int start, int n) {
            word = start;
            end = start + n;
            enterWord();
        }

        private void enterWord() {
            part = text;
            pos = words.start(word);
            limit = words.end(word);
        }

        char next() {
            while (pos >= limit) {
                if (!inSep && word + 1 < end) {
                    inSep = true;
                    part = sep;
                    pos = 0;
                    limit = sep.length();
                } else {
                    inSep = false;
                    word++;
                    enterWord();
                }
            }
            return part.charAt(pos++);
        }
    }

    /**
     * An open-addressing set of the windows of n words that may occur more than once ({@link #candidates},
     * in text order; the others need no look-up: a window no other window equals is never "seen before"
     * and never makes a later one so); with {@code counting}, each slot also counts. Slots hold the
     * window's first word + 1, so a new table's zeroed arrays are already empty: nine tables per document
     * are built, and filling them with a marker first cost a pass over each.
     */
    private final class WindowTable {
        final int n;
        final int[] startPlusOne;
        final long[] hashes;
        final int[] counts;
        final int mask;
        final long[] windowHashes;
        /** The windows whose hash another window may share: {@code candidates[0:candidateCount]}. */
        final int[] candidates;
        final int candidateCount;

        WindowTable(int n, int windows, boolean counting) {
            this.n = n;
            windowHashes = windowHashes(n);
            candidates = candidates();
            candidateCount = sharedHashWindows(windowHashes, windows, candidates);
            int cap = Integer.highestOneBit(Math.max(16, candidateCount * 2 - 1)) << 1;
            startPlusOne = new int[cap];
            hashes = new long[cap];
            counts = counting ? new int[cap] : null;
            mask = cap - 1;
        }

        /** The slot of the window equal to window {@code i}, inserting it when new. */
        int slot(int i) {
            long h = windowHashes[i];
            long m = h * 0x9E3779B97F4A7C15L;
            int s = (int) (m ^ (m >>> 32)) & mask;
            int occupant;
            while ((occupant = startPlusOne[s]) != 0) {
                if (hashes[s] == h && same(occupant - 1, i, n)) {
                    return s;
                }
                s = (s + 1) & mask;
            }
            startPlusOne[s] = i + 1;
            hashes[s] = h;
            return s;
        }

        /** The first window equal to the one in slot s. */
        int start(int s) {
            return startPlusOne[s] - 1;
        }
    }

    /**
     * datatrove's {@code find_top_duplicate}: code-point length of the most frequent n-gram times its
     * count; ties in count go to the n-gram seen first ({@code Counter.most_common(1)}). 0 when there is
     * no n-gram. Only the n-grams that may occur more than once are counted: when none does, the first
     * n-gram wins with a count of 1.
     */
    long topDuplicateChars(int n) {
        int windows = words.size() - n + 1;
        if (windows <= 0) {
            return 0;
        }
        WindowTable table = new WindowTable(n, windows, true);
        int bestCount = 1;
        int bestFirst = 0;
        for (int k = 0; k < table.candidateCount; k++) {
            int s = table.slot(table.candidates[k]);
            int c = ++table.counts[s];
            int first = table.start(s);
            if (c > bestCount || (c == bestCount && c > 1 && first < bestFirst)) {
                bestCount = c;
                bestFirst = first;
            }
        }
        return codePoints(bestFirst, n) * bestCount;
    }

    /**
     * datatrove's {@code find_all_duplicate}: a greedy scan that adds an n-gram's length each time it
     * was seen before and then jumps {@code n} words ahead.
     */
    long allDuplicateChars(int n) {
        int windows = words.size() - n + 1;
        if (windows <= 0) {
            return 0;
        }
        // the scan steps over the windows that cannot repeat (most of those of 5 and more words)
        WindowTable table = new WindowTable(n, windows, false);
        long repeated = 0;
        int i = 0;
        for (int k = 0; k < table.candidateCount; k++) {
            int c = table.candidates[k];
            if (c < i) {
                continue; // inside the n-gram just counted
            }
            i = c;
            int s = table.slot(i);
            if (table.start(s) != i) {
                repeated += codePoints(i, n);
                i += n;
            } else {
                i++;
            }
        }
        return repeated;
    }

    /**
     * Puts into {@code out}, in order, the windows whose hash may equal another window's, and returns
     * how many: two bit sets indexed by a part of the hash, one marking hashes seen, the other those
     * seen again, then a pass keeping the windows whose bit was set twice. At 16 to 32 bits per window
     * the sets stay in the first-level cache, and at most about one unique window in 16 is kept needlessly.
     */
    private static int sharedHashWindows(long[] hashes, int windows, int[] out) {
        int shift = Long.numberOfLeadingZeros(Math.max(64, Integer.highestOneBit(windows) * 32L) - 1);
        long[] seen = new long[(int) (-1L >>> shift >>> 6) + 1];
        long[] seenAgain = new long[seen.length];
        for (int i = 0; i < windows; i++) {
            int bit = (int) ((hashes[i] * 0x9E3779B97F4A7C15L) >>> shift);
            int word = bit >>> 6;
            long mask = 1L << bit;
            seenAgain[word] |= seen[word] & mask;
            seen[word] |= mask;
        }
        int count = 0;
        for (int i = 0; i < windows; i++) {
            int bit = (int) ((hashes[i] * 0x9E3779B97F4A7C15L) >>> shift);
            out[count] = i;
            count += (int) (seenAgain[bit >>> 6] >>> bit) & 1;
        }
        return count;
    }
}
