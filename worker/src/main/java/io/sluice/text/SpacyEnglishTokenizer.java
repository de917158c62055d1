package io.sluice.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A re-implementation of the tokenizer of spaCy's {@code spacy.blank("en")} (spaCy 3.8), which is
 * what datatrove's English {@code word_tokenize} and sentence splitting run on.
 *
 * <p>How a text is tokenized (spacy/tokenizer.pyx):
 * <ol>
 *   <li>The text is cut into alternating runs of whitespace and non-whitespace ("chunks"). A single
 *       space after a chunk belongs to it as trailing whitespace; any other whitespace run becomes a
 *       whitespace token.</li>
 *   <li>A chunk that is a special case (see {@link EnglishTokenizerExceptions}) is split as the table
 *       says, e.g. "don't" -> "do" "n't".</li>
 *   <li>Otherwise prefixes and suffixes are peeled off ({@link PunctuationRules}) in a loop: per round,
 *       one prefix and one suffix; the loop stops when nothing more comes off, when the rest is a special
 *       case, or right after a prefix or suffix whose removal leaves a special case ("(don't)").</li>
 *   <li>What remains in the middle becomes a special case's tokens, one URL/e-mail token
 *       ({@link UrlMatcher}), or is cut at infixes (hyphens between letters, "..." etc.).</li>
 *   <li>Finally special cases that span several tokens of the result (e.g. ":" ")" -> ":)", "a" "." ->
 *       "a.") are merged, choosing the longest matches first, as spaCy's special-case matcher does.</li>
 * </ol>
 * spaCy also caches chunk results, but datatrove tokenizes inside a {@code memory_zone}, where the cache
 * is never filled, so results depend on the chunk alone. Instances are immutable and thread-safe.
 */
public final class SpacyEnglishTokenizer {
    private static final SpacyEnglishTokenizer ENGLISH = new SpacyEnglishTokenizer(EnglishTokenizerExceptions.build());

    /** chunk -> lengths (UTF-16) of the tokens it is split into. */
    private final RegionMap<int[]> specialCases;
    /** The length of the longest special case (12 characters). */
    private final int longestSpecialCase;
    /** The special cases that are lower-case letters a-z only ("dont", "cannot", "gonna"). */
    private final RegionMap<int[]> lowercaseWordCases;
    /** first token text -> patterns (as produced without special cases) of special cases starting with it. */
    private final RegionMap<PatternGroup> specialPatternsByFirstToken;
    /** The same for one-character ASCII first tokens (".", ",", "a", "(" ...), the most frequent, by index. */
    private final PatternGroup[] specialPatternsByAsciiChar = new PatternGroup[128];
    /**
     * The second tokens of all patterns, and the first tokens of one-token patterns: a token can start a
     * match only if it is in the second set or the token after it is in the first. Common words ("and",
     * "it", "this") start patterns, but are rarely followed by one of the few second tokens ("'s", "/").
     */
    private final RegionMap<Boolean> patternSecondTokens;
    private final RegionMap<Boolean> oneTokenPatterns;
    /**
     * What the chunking loop's fast path asks of a plain word, in one lookup: the keys of the three maps
     * above. Most words are none of them, and one filter test per word says so.
     */
    private final RegionMap<WordFacts> wordFacts;

    /** A special case's piece lengths (or null), and whether the text is a pattern's second or only token. */
    private record WordFacts(int[] pieces, boolean secondToken, boolean oneTokenPattern) {
    }

    private SpacyEnglishTokenizer(Map<String, String[]> exceptions) {
        Map<String, int[]> lengths = new HashMap<>();
        exceptions.forEach((chunk, pieces) -> lengths.put(chunk, Arrays.stream(pieces).mapToInt(String::length).toArray()));
        this.specialCases = new RegionMap<>(lengths);
        this.longestSpecialCase = lengths.keySet().stream().mapToInt(String::length).max().orElse(0);
        Map<String, int[]> lowercase = new HashMap<>();
        lengths.forEach((chunk, pieces) -> {
            if (chunk.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
                lowercase.put(chunk, pieces);
            }
        });
        this.lowercaseWordCases = new RegionMap<>(lowercase);
        Map<String, PatternGroup> groups = new HashMap<>();
        Map<String, Boolean> seconds = new HashMap<>();
        Map<String, Boolean> singles = new HashMap<>();
        specialCasePatterns(exceptions.keySet()).forEach((first, patterns) -> {
            groups.put(first, PatternGroup.of(patterns));
            for (String[] p : patterns) {
                if (p.length == 1) {
                    singles.put(first, true);
                } else {
                    seconds.put(p[1], true);
                }
            }
        });
        this.specialPatternsByFirstToken = new RegionMap<>(groups);
        this.patternSecondTokens = new RegionMap<>(seconds);
        this.oneTokenPatterns = new RegionMap<>(singles);
        Map<String, WordFacts> facts = new HashMap<>();
        for (String key : union(lengths.keySet(), seconds.keySet(), singles.keySet())) {
            facts.put(key, new WordFacts(lengths.get(key), seconds.containsKey(key), singles.containsKey(key)));
        }
        this.wordFacts = new RegionMap<>(facts);
        for (char c = 0; c < 128; c++) {
            specialPatternsByAsciiChar[c] = specialPatternsByFirstToken.get(String.valueOf(c), 0, 1);
        }
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> set : sets) {
            all.addAll(set);
        }
        return all;
    }

    /** The English tokenizer (shared; thread-safe). */
    public static SpacyEnglishTokenizer english() {
        return ENGLISH;
    }

    /** Tokenizes {@code text} into a new {@link Tokens}. */
    public Tokens tokenize(String text) {
        Tokens tokens = new Tokens(text.length() / 4 + 16); // English averages 5-6 characters per token
        tokenize(text, tokens);
        return tokens;
    }

    /**
     * Tokenizes {@code text} into {@code out} (reused, its previous content is dropped; arrays sized for
     * more than {@link #MAX_KEPT_TOKENS} tokens are dropped too, so a reused list does not pin them).
     */
    public void tokenize(String text, Tokens out) {
        out.release(MAX_KEPT_TOKENS); // a list reused from text to text does not keep a huge text's arrays
        out.reset(text);
        ChunkMemo memo = ChunkMemo.forThisThread();
        char[] chars = memo.charsOf(text);
        memo.matchStarts.clear();
        tokenizeWithoutMatcher(chars, text.length(), out, memo);
        mergeMultiTokenSpecialCases(chars, out, memo.matchStarts, memo.mergedTokens);
    }

    /** See {@link EnglishText#isWholeWord}: the chunking loop's fast path for letters-only chunks. */
    boolean keepsLettersWhole(String text, int start, int end) {
        return !specialCases.containsKey(text, start, end);
    }

    /**
     * {@link #keepsLettersWhole(String, int, int)} for {@code chars[0:length]}, lower-case letters a-z
     * only: asked of the lower-cased words of simplified text, in a table of the 162 special cases that
     * are such words, whose quick test rejects most words sooner than the full table's.
     */
    boolean keepsLowercaseLettersWhole(char[] chars, int length) {
        return lowercaseWordCases.get(chars, 0, length) == null;
    }

    /**
     * Steps 1-4 of the class comment. {@code chars} holds the text's characters (the hot loops read an
     * array rather than pay String.charAt's checks per character); {@code memo} is null in spaCy's
     * pattern-building mode, without special cases, a one-off at startup not worth memoising.
     */
    private void tokenizeWithoutMatcher(char[] chars, int length, Tokens out, ChunkMemo memo) {
        boolean withSpecialCases = memo != null;
        Affixes affixes = withSpecialCases ? memo.affixes : new Affixes();
        long[] bits = withSpecialCases ? memo.classesOf(chars, length) : CharClasses.of(chars, length, null);
        // One run of whitespace or of other characters per turn.
        int i = 0;
        while (i < length) {
            int start = i;
            if (CharClasses.isSpace(bits, i)) {
                i = CharClasses.nextNonSpace(bits, i, length);
                // A single space right after a chunk is that chunk's trailing whitespace, not a token.
                if (start > 0 && chars[start] == ' ') {
                    start++;
                }
                if (start < i) {
                    out.add(start, i); // no rule splits whitespace; special cases like "\n" keep it whole too
                    if (withSpecialCases) {
                        noteMatchStarts(chars, out, out.size() - 1, memo.matchStarts);
                    }
                }
                continue;
            }
            i = CharClasses.nextSpace(bits, i);
            addChunk(chars, start, i, CharClasses.allAsciiLetters(bits, start, i), out, affixes, memo);
        }
    }

    /** Adds the tokens of the chunk {@code chars[start:end]}, noting where matches may start (steps 2-4). */
    private void addChunk(char[] chars, int start, int end, boolean asciiLetters, Tokens out, Affixes affixes, ChunkMemo memo) {
        if (!asciiLetters) {
            addMarkedChunk(chars, start, end, out, affixes, memo);
            return;
        }
        // the most common chunk, a plain word: no prefix, suffix, infix or URL rule applies to it
        WordFacts facts = memo != null ? wordFacts.get(chars, start, end) : null;
        if (facts == null) {
            out.add(start, end);
        } else {
            addPlainWord(chars, start, end, out, facts, memo.matchStarts);
        }
    }

    /**
     * See {@link EnglishText#chunkTokens}. A special case spanning tokens never spans whitespace (none has
     * whitespace beside other characters), so the matcher can change a chunk's tokens only through a match
     * inside it; whether such a match is kept depends on the matches around it ({@link #tokensInContext}).
     */
    boolean chunkTokens(char[] chars, int length, int start, int end, Tokens out) {
        out.reset("");
        ChunkMemo memo = ChunkMemo.forThisThread();
        MatchStarts starts = memo.matchStarts;
        starts.clear();
        addChunk(chars, start, end, asciiLetters(chars, start, end), out, memo.affixes, memo);
        boolean alone = !mayChangeInside(chars, out, starts);
        starts.clear();
        if (!alone) {
            tokensInContext(chars, length, start, end, out);
        }
        return alone;
    }

    /**
     * The tokens of the chunk {@code chars[start:end]} of a text of {@code length} characters, with the
     * matcher run over the text around it. A match inside the chunk is dropped when a longer match (or
     * one as long that starts earlier) covers its first or last token, kept or not; every such match lies
     * within {@link #longestSpecialCase} characters plus the single spaces between its tokens (no pattern
     * has a whitespace token beside others), so the text that far around the chunk, cut at whitespace,
     * holds them all.
     */
    private void tokensInContext(char[] chars, int length, int start, int end, Tokens out) {
        int reach = 2 * longestSpecialCase;
        int from = Math.max(0, start - reach);
        while (from > 0 && !PyText.isSpace(chars[from - 1])) {
            from--;
        }
        while (PyText.isSpace(chars[from])) {
            from++; // stops at start at the latest
        }
        int to = Math.min(length, end + reach);
        while (to < length && !PyText.isSpace(chars[to])) {
            to++;
        }
        while (PyText.isSpace(chars[to - 1])) {
            to--; // stops at end at the latest
        }
        Tokens around = tokenize(new String(chars, from, to - from));
        out.reset("");
        for (int t = 0; t < around.size(); t++) {
            int tokenStart = from + around.start(t);
            if (tokenStart >= start && tokenStart < end) {
                out.add(tokenStart, from + around.end(t));
            }
        }
    }

    /** Could a special case spanning some of {@code tokens} (one chunk's, with its match starts) change them? */
    private boolean mayChangeInside(char[] chars, Tokens tokens, MatchStarts starts) {
        int n = tokens.size();
        for (int c = 0; c < starts.size; c++) {
            int i = starts.starts[c];
            PatternGroup group = patternsStartingAt(chars, tokens, i);
            if (group == null) {
                continue;
            }
            if (group.oneToken().length > 0 && changes(chars, tokens, i, i + 1)) {
                return true;
            }
            String[][] patterns = i + 1 < n ? group.bySecondToken().get(chars, tokens.start(i + 1), tokens.end(i + 1)) : null;
            if (patterns == null) {
                continue;
            }
            for (String[] pattern : patterns) {
                if (i + pattern.length <= n && matchesAt(chars, tokens, i, pattern) && changes(chars, tokens, i, i + pattern.length)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Would merging {@code tokens[first:end]} as the special case their text is give other tokens? */
    private boolean changes(char[] chars, Tokens tokens, int first, int end) {
        int[] pieces = specialCases.get(chars, tokens.start(first), tokens.end(end - 1));
        if (pieces == null) {
            return false;
        }
        if (pieces.length != end - first) {
            return true;
        }
        for (int k = 0; k < pieces.length; k++) {
            if (pieces[k] != tokens.end(first + k) - tokens.start(first + k)) {
                return true;
            }
        }
        return false;
    }

    /** A plain word that is a special case or may take part in one that spans tokens. */
    private void addPlainWord(char[] chars, int start, int end, Tokens out, WordFacts facts, MatchStarts starts) {
        int before = out.size();
        if (facts.pieces() == null) {
            out.add(start, end);
        } else {
            for (int length : facts.pieces()) {
                out.add(start, start + length);
                start += length;
            }
        }
        noteMatchStarts(chars, out, before, starts);
    }

    /**
     * Notes, for the tokens from {@code from} on, where a multi-token special case may start (step 5):
     * at a token that may be a one-token pattern, and one token before a token that may be a pattern's
     * second token. Done as tokens are made, so that the matcher visits only these places rather than
     * every token of the text; plain words, most tokens, are settled by one lookup in {@code wordFacts}.
     * Returns what the chunk memo keeps of it: 0 when none of the tokens may take part in a match, else
     * two bits per token for the first three ({@link #SECOND_TOKEN}, {@link #ONE_TOKEN}), or
     * {@link #MORE_TOKENS} when a later token may.
     */
    private int noteMatchStarts(char[] chars, Tokens out, int from, MatchStarts starts) {
        int flags = 0;
        for (int t = from; t < out.size(); t++) {
            int s = out.start(t);
            int e = out.end(t);
            int bits = (patternSecondTokens.mayContain(chars, s, e) ? SECOND_TOKEN : 0)
                    | (oneTokenPatterns.mayContain(chars, s, e) ? ONE_TOKEN : 0);
            if (bits != 0) {
                noteStartsFor(bits, t, starts);
                flags |= t - from < 3 ? bits << 2 * (t - from) : MORE_TOKENS;
            }
        }
        return flags;
    }

    static final int SECOND_TOKEN = 1;
    static final int ONE_TOKEN = 2;
    /** Beyond the first three tokens' six bits of flags, so the chunk memo does not keep them ({@link ChunkMemo#putInline}). */
    static final int MORE_TOKENS = 1 << 30;

    /**
     * {@link #noteMatchStarts(char[], Tokens, int, MatchStarts)} for tokens {@code from..from+2}, from the
     * flags it returned for them before: a memoised chunk such as "it." or "(a" need not test its tokens again.
     */
    private static void noteRememberedMatchStarts(int flags, int from, MatchStarts starts) {
        for (int k = 0; k < 3; k++) {
            noteStartsFor(flags >>> 2 * k & 3, from + k, starts);
        }
    }

    /** The match starts that token {@code t}'s two bits call for: the token before it, and itself. */
    private static void noteStartsFor(int bits, int t, MatchStarts starts) {
        if ((bits & SECOND_TOKEN) != 0 && t > 0) {
            starts.add(t - 1);
        }
        if ((bits & ONE_TOKEN) != 0) {
            starts.add(t);
        }
    }

    /** Scratch arrays for more tokens than this are not kept for the next text (one huge text would pin them). */
    static final int MAX_KEPT_TOKENS = 1 << 18;

    /**
     * The token indices at which the matcher looks for patterns, ascending, each once; the spans it
     * found; and its per-token flags, kept all false between texts. Spans are longs in primitive arrays
     * rather than objects in lists: the matcher runs once per text, and C2 compiled its list, record and
     * comparator machinery into one of the job's largest methods, again after every deoptimisation.
     */
    static final class MatchStarts {
        private int[] starts = new int[64];
        private int size;
        private boolean[] covered = new boolean[64];
        /** Candidate spans as (MAX_VALUE - length) << 32 | start: ascending is longest first, earliest on ties. */
        private long[] spans = new long[16];
        private int spanCount;
        /** The spans kept, as start << 32 | end, in text order. */
        private long[] kept = new long[16];

        void clear() {
            size = 0;
            spanCount = 0;
        }

        void add(int start) {
            if (size > 0 && starts[size - 1] == start) {
                return;
            }
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
            }
            starts[size++] = start;
        }

        void addSpan(int start, int end) {
            if (spanCount == spans.length) {
                spans = Arrays.copyOf(spans, spanCount * 2);
            }
            spans[spanCount++] = (long) (Integer.MAX_VALUE - (end - start)) << 32 | start;
        }

        /**
         * spaCy's _filter_special_spans: longest first (earliest on ties), a span is kept unless its first
         * or last token is covered by an earlier span, kept or not. Returns the number of spans kept, left
         * in {@link #kept} in text order (kept spans never share a start).
         */
        int keepNonOverlapping(int tokens) {
            Arrays.sort(spans, 0, spanCount);
            if (kept.length < spanCount) {
                kept = new long[Math.max(spanCount, 2 * kept.length)];
            }
            boolean[] seen = coveredFlags(tokens);
            int k = 0;
            for (int c = 0; c < spanCount; c++) {
                int start = (int) spans[c];
                int end = end(spans[c]);
                if (!seen[start] && !seen[end - 1]) {
                    kept[k++] = (long) start << 32 | end;
                }
                Arrays.fill(seen, start, end, true);
            }
            for (int c = 0; c < spanCount; c++) {
                Arrays.fill(seen, (int) spans[c], end(spans[c]), false);
            }
            Arrays.sort(kept, 0, k);
            return k;
        }

        /** The end of a candidate span (see {@link #spans}). */
        private static int end(long span) {
            return (int) span + Integer.MAX_VALUE - (int) (span >>> 32);
        }

        /** Per-token flags, all false; kept for the next text unless sized for a huge one. */
        private boolean[] coveredFlags(int tokens) {
            if (tokens > MAX_KEPT_TOKENS) {
                return new boolean[tokens];
            }
            if (covered.length < tokens) {
                covered = new boolean[Math.max(tokens, 2 * covered.length)];
            }
            return covered;
        }
    }

    /**
     * Adds the tokens of one chunk that is not plain letters, and notes where matches may start;
     * {@code memo} is null in pattern-building mode (no special cases, no matcher).
     */
    private void addMarkedChunk(char[] chars, int start, int end, Tokens out, Affixes affixes, ChunkMemo memo) {
        if (memo == null) {
            addChunkByRules(chars, start, end, out, affixes, false);
            return;
        }
        int before = out.size();
        int length = end - start;
        if (length <= ChunkMemo.INLINE) {
            int found = memo.addInline(chars, start, end, out);
            if (found == ChunkMemo.NOT_FOUND) {
                addWithoutMemo(chars, start, end, out, affixes);
                memo.putInline(chars, start, end, out, before, noteMatchStarts(chars, out, before, memo.matchStarts));
            } else if (found == ChunkMemo.MAY_MATCH_UNKNOWN) {
                noteMatchStarts(chars, out, before, memo.matchStarts);
            } else if (found != ChunkMemo.NO_MATCH) {
                noteRememberedMatchStarts(found, before, memo.matchStarts);
            }
        } else if (length > ChunkMemo.MAX_CHUNK) {
            addWithoutMemo(chars, start, end, out, affixes);
            noteMatchStarts(chars, out, before, memo.matchStarts);
        } else if (addSpecialCase(chars, start, end, out) || addWordWithOneMark(chars, start, end, out)) {
            noteMatchStarts(chars, out, before, memo.matchStarts);
        } else {
            addMemoisedChunk(chars, start, end, out, affixes, memo);
        }
    }

    /** A chunk as a special case, a word with one mark, or else by the prefix, suffix and infix rules. */
    private void addWithoutMemo(char[] chars, int start, int end, Tokens out, Affixes affixes) {
        if (!addSpecialCase(chars, start, end, out) && !addWordWithOneMark(chars, start, end, out)) {
            addChunkByRules(chars, start, end, out, affixes, true);
        }
    }

    /** A short chunk through the memo: its tokens from there, or from the rules and then remembered. */
    private void addMemoisedChunk(char[] chars, int start, int end, Tokens out, Affixes affixes, ChunkMemo memo) {
        int before = out.size();
        int h = ChunkMemo.hash(chars, start, end);
        int[] entry = memo.get(chars, start, end, h);
        if (entry == null) {
            addChunkByRules(chars, start, end, out, affixes, true);
            memo.put(chars, start, end, h, out, before, noteMatchStarts(chars, out, before, memo.matchStarts) != 0);
            return;
        }
        int pairs = ChunkMemo.tokenCount(entry) * 2;
        for (int i = 0; i < pairs; i += 2) {
            out.add(start + entry[i], start + entry[i + 1]);
        }
        if (ChunkMemo.mayTakePartInMatch(entry)) {
            noteMatchStarts(chars, out, before, memo.matchStarts);
        }
    }

    /** Steps 3-4 of the class comment for a chunk that is not itself a special case. */
    private void addChunkByRules(char[] chars, int start, int end, Tokens out, Affixes affixes,
            boolean withSpecialCases) {
        final int chunkStart = start;
        final int chunkEnd = end;
        affixes.clear();
        // Peel off prefixes and suffixes (spaCy's _split_affixes).
        int lastLength = -1;
        while (start < end && end - start != lastLength) {
            boolean shrunk = start != chunkStart || end != chunkEnd; // the whole chunk was looked up above
            if (withSpecialCases && shrunk && specialCases.get(chars, start, end) != null) {
                break;
            }
            lastLength = end - start;
            int prefix = PunctuationRules.prefixLength(chars, start, end);
            if (prefix != 0 && withSpecialCases && start + prefix < end
                    && specialCases.get(chars, start + prefix, end) != null) {
                affixes.addPrefix(start, start + prefix);
                start += prefix;
                break;
            }
            int suffix = PunctuationRules.suffixLength(chars, start + prefix, end);
            if (suffix != 0 && withSpecialCases && end - suffix > start
                    && specialCases.get(chars, start, end - suffix) != null) {
                affixes.addSuffix(end - suffix, end);
                end -= suffix;
                break;
            }
            if (prefix != 0) {
                affixes.addPrefix(start, start + prefix);
                start += prefix;
            }
            if (suffix != 0) {
                affixes.addSuffix(end - suffix, end);
                end -= suffix;
            }
        }
        // Emit prefixes, the middle, then suffixes innermost first (spaCy's _attach_tokens).
        for (int i = 0; i < affixes.prefixCount; i++) {
            out.add(affixes.prefixes[2 * i], affixes.prefixes[2 * i + 1]);
        }
        if (start < end) {
            boolean shrunk = start != chunkStart || end != chunkEnd;
            if (withSpecialCases && shrunk && addSpecialCase(chars, start, end, out)) {
                // done
            } else if (UrlMatcher.matches(chars, start, end)) {
                out.add(start, end);
            } else {
                addSplitAtInfixes(chars, start, end, out);
            }
        }
        for (int i = affixes.suffixCount - 1; i >= 0; i--) {
            out.add(affixes.suffixes[2 * i], affixes.suffixes[2 * i + 1]);
        }
    }

    /**
     * The second most common chunk, ASCII letters with one punctuation mark after ("said,", "it.") or
     * before ("(the"), without the memo: when the rules peel exactly that mark, the rest is plain
     * letters, which no further rule cuts, so the tokens are the mark and the word (or the word's
     * special-case pieces). Returns false, adding nothing, for any other chunk.
     */
    private boolean addWordWithOneMark(char[] chars, int start, int end, Tokens out) {
        if (end - start < 2) {
            return false;
        }
        if (asciiLetters(chars, start, end - 1) && PunctuationRules.prefixLength(chars, start, end) == 0
                && PunctuationRules.suffixLength(chars, start, end) == 1) {
            addWord(chars, start, end - 1, out);
            out.add(end - 1, end);
            return true;
        }
        if (asciiLetters(chars, start + 1, end) && PunctuationRules.prefixLength(chars, start, end) == 1
                && PunctuationRules.suffixLength(chars, start + 1, end) == 0) {
            out.add(start, start + 1);
            addWord(chars, start + 1, end, out);
            return true;
        }
        return false;
    }

    private static boolean asciiLetters(char[] chars, int start, int end) {
        for (int i = start; i < end; i++) {
            if ((char) ((chars[i] | 0x20) - 'a') >= 26) { // not A-Z or a-z
                return false;
            }
        }
        return true;
    }

    /** A run of ASCII letters: its special-case pieces, or itself. */
    private void addWord(char[] chars, int start, int end, Tokens out) {
        if (!addSpecialCase(chars, start, end, out)) {
            out.add(start, end);
        }
    }

    private boolean addSpecialCase(char[] chars, int start, int end, Tokens out) {
        int[] pieces = specialCases.get(chars, start, end);
        if (pieces == null) {
            return false;
        }
        for (int length : pieces) {
            out.add(start, start + length);
            start += length;
        }
        return true;
    }

    /** Cuts {@code text[start:end]} before and after each infix; an infix at the very start is not cut off. */
    private static void addSplitAtInfixes(char[] text, int start, int end, Tokens out) {
        int tokenStart = start;
        int i = start;
        while (i < end) {
            char c = text[i];
            int infix = PunctuationRules.mayStartInfix(c) ? PunctuationRules.infixLength(text, start, end, i) : 0;
            if (infix == 0) {
                i += Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1]) ? 2 : 1;
                continue;
            }
            if (i != start) {
                if (i != tokenStart) {
                    out.add(tokenStart, i);
                }
                out.add(i, i + infix);
                tokenStart = i + infix;
            }
            i += infix;
        }
        if (tokenStart < end) {
            out.add(tokenStart, end);
        }
    }

    // ---- step 5: special cases spanning several tokens ----

    /**
     * spaCy registers a special case with its matcher when the punctuation rules would cut it (it has a
     * prefix, suffix or infix, or a space); the pattern is the token sequence the rules alone produce.
     * Returns the patterns by their first token.
     */
    private Map<String, List<String[]>> specialCasePatterns(Iterable<String> chunks) {
        Map<String, List<String[]>> byFirst = new HashMap<>();
        Tokens scratch = new Tokens(16);
        for (String chunk : chunks) {
            int n = chunk.length();
            char[] chunkChars = chunk.toCharArray();
            boolean cutByRules = PunctuationRules.prefixLength(chunkChars, 0, n) != 0
                    || PunctuationRules.suffixLength(chunkChars, 0, n) != 0 || hasInfix(chunkChars)
                    || chunk.indexOf(' ') >= 0;
            if (!cutByRules) {
                continue;
            }
            scratch.reset(chunk);
            tokenizeWithoutMatcher(chunkChars, n, scratch, null);
            if (scratch.size() == 1 && specialCases.get(chunk, 0, n).length == 1) {
                // A one-token match that the special case leaves whole ("'", "—") changes no token, and it
                // cannot hide a longer match (those are kept first): without it, a text full of quotes or
                // dashes no longer pays for the rebuild below.
                continue;
            }
            String[] pattern = new String[scratch.size()];
            for (int i = 0; i < pattern.length; i++) {
                pattern[i] = scratch.text(i);
            }
            byFirst.computeIfAbsent(pattern[0], k -> new ArrayList<>()).add(pattern);
        }
        return byFirst;
    }

    /**
     * The patterns sharing one first token, indexed by their second token: frequent first tokens such
     * as ":", "(" or "'" start dozens of emoticon and contraction patterns, and comparing each of them at
     * every such token was a tenth of the tokenizer's time.
     */
    private record PatternGroup(String[][] oneToken, RegionMap<String[][]> bySecondToken) {
        static PatternGroup of(List<String[]> patterns) {
            List<String[]> single = new ArrayList<>();
            Map<String, List<String[]>> bySecond = new HashMap<>();
            for (String[] p : patterns) {
                if (p.length == 1) {
                    single.add(p);
                } else {
                    bySecond.computeIfAbsent(p[1], k -> new ArrayList<>()).add(p);
                }
            }
            Map<String, String[][]> arrays = new HashMap<>();
            bySecond.forEach((second, list) -> arrays.put(second, list.toArray(String[][]::new)));
            return new PatternGroup(single.toArray(String[][]::new), new RegionMap<>(arrays));
        }
    }

    private static boolean hasInfix(char[] s) {
        for (int i = 0; i < s.length; i++) {
            if (PunctuationRules.mayStartInfix(s[i]) && PunctuationRules.infixLength(s, 0, s.length, i) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Finds all token sequences equal to a special case's pattern, keeps the longest (earliest on ties)
     * that do not overlap an already kept or rejected one at their first or last token (spaCy's
     * _filter_special_spans), and replaces each kept one whose text is exactly a special case.
     */
    private void mergeMultiTokenSpecialCases(char[] text, Tokens tokens, MatchStarts matchStarts, Tokens scratch) {
        int n = tokens.size();
        for (int c = 0; c < matchStarts.size; c++) {
            int i = matchStarts.starts[c];
            PatternGroup group = patternsStartingAt(text, tokens, i);
            if (group == null) {
                continue;
            }
            for (int k = 0; k < group.oneToken().length; k++) {
                matchStarts.addSpan(i, i + 1); // its first token is the whole pattern
            }
            String[][] patterns = i + 1 < n
                    ? group.bySecondToken().get(text, tokens.start(i + 1), tokens.end(i + 1)) : null;
            if (patterns == null) {
                continue;
            }
            for (String[] pattern : patterns) {
                if (i + pattern.length <= n && matchesAt(text, tokens, i, pattern)) {
                    matchStarts.addSpan(i, i + pattern.length);
                }
            }
        }
        if (matchStarts.spanCount > 0) {
            replaceKeptSpans(text, tokens, matchStarts, scratch);
        }
    }

    /** The special cases' patterns whose first token is token {@code i}'s text, or null. */
    private PatternGroup patternsStartingAt(char[] text, Tokens tokens, int i) {
        int start = tokens.start(i);
        int end = tokens.end(i);
        char first = text[start];
        return end - start == 1 && first < 128 ? specialPatternsByAsciiChar[first]
                : specialPatternsByFirstToken.get(text, start, end);
    }

    /** Rebuilds the token list in one sweep (merges can be many in a long text), if anything changes. */
    private void replaceKeptSpans(char[] text, Tokens tokens, MatchStarts matchStarts, Tokens scratch) {
        int n = tokens.size();
        int keptCount = matchStarts.keepNonOverlapping(n);
        long[] kept = matchStarts.kept;
        Tokens merged = null;
        int next = 0;
        for (int k = 0; k < keptCount; k++) {
            int first = (int) (kept[k] >>> 32);
            int end = (int) kept[k];
            int from = tokens.start(first);
            int to = tokens.end(end - 1);
            int[] pieces = specialCases.get(text, from, to);
            if (pieces == null) {
                continue; // e.g. the tokens are separated by whitespace: nothing to merge
            }
            if (merged == null) {
                merged = scratch;
                merged.reset(tokens.text());
            }
            for (; next < first; next++) {
                merged.add(tokens.start(next), tokens.end(next));
            }
            for (int length : pieces) {
                merged.add(from, from + length);
                from += length;
            }
            next = end;
        }
        if (merged == null) {
            return;
        }
        for (; next < n; next++) {
            merged.add(tokens.start(next), tokens.end(next));
        }
        tokens.swap(merged);
        scratch.release(MAX_KEPT_TOKENS);
    }

    /** Do the tokens from {@code first} on equal the pattern? Its first two tokens are known to match. */
    private static boolean matchesAt(char[] text, Tokens tokens, int first, String[] pattern) {
        for (int k = 2; k < pattern.length; k++) {
            int start = tokens.start(first + k);
            int length = tokens.end(first + k) - start;
            if (length != pattern[k].length()) {
                return false;
            }
            for (int j = 0; j < length; j++) {
                if (text[start + j] != pattern[k].charAt(j)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The prefixes and suffixes peeled off one chunk, as [start, end) pairs in peeling order; scratch space,
     * reused per thread through {@link ChunkMemo}.
     */
    static final class Affixes {
        int[] prefixes = new int[16];
        int[] suffixes = new int[16];
        int prefixCount;
        int suffixCount;

        void clear() {
            prefixCount = 0;
            suffixCount = 0;
        }

        void addPrefix(int start, int end) {
            if (2 * prefixCount + 2 > prefixes.length) {
                prefixes = Arrays.copyOf(prefixes, prefixes.length * 2);
            }
            prefixes[2 * prefixCount] = start;
            prefixes[2 * prefixCount + 1] = end;
            prefixCount++;
        }

        void addSuffix(int start, int end) {
            if (2 * suffixCount + 2 > suffixes.length) {
                suffixes = Arrays.copyOf(suffixes, suffixes.length * 2);
            }
            suffixes[2 * suffixCount] = start;
            suffixes[2 * suffixCount + 1] = end;
            suffixCount++;
        }
    }
}
