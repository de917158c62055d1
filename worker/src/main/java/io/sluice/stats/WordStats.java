package io.sluice.stats;

import io.sluice.job.StepArgs;
import io.sluice.text.CharClasses;
import io.sluice.text.EnglishText;
import io.sluice.text.PackedChars;
import io.sluice.text.PyText;
import io.sluice.text.WordSet;
import io.sluice.text.Tokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Step {@code word_stats} (datatrove's {@code WordStats}), words from {@link EnglishText#words}.
 * Stats: {@code n_words}, {@code avg_word_length}, {@code avg_words_per_line} (lines of Python's
 * {@code splitlines()}), {@code short_word_ratio_<k>} (length &lt;= k), {@code long_word_ratio_<k>}
 * (length &gt;= k), {@code type_token_ratio}, {@code uppercase_word_ratio} ({@code str.isupper}),
 * {@code capitalized_word_ratio} ({@code str.istitle}), {@code stop_word_ratio}.
 * Keys: {@code stop_words} (default the 8 Gopher stop words, case-sensitive),
 * {@code short_word_max_chars_threshold} ([3]), {@code long_word_max_chars_threshold} ([7]),
 * {@code language} (English only: en, eng, en_Latn or eng_Latn).
 *
 * <p>datatrove splits English words with spaCy ({@code blank("en")}); {@link EnglishText} re-implements that
 * tokenizer rather than approximating it, so the words are the same: on the five golden corpora (2,487
 * documents) the per-document word counts have datatrove's distribution exactly, and the merged files are
 * byte-identical (README, "Agreement with datatrove"; {@code GoldenTextParityTest}, {@code GoldenStatsParityTest});
 * checked offline against spaCy itself, the token lists are identical document by document.
 */
public final class WordStats extends StatsStep {
    static final List<String> GOPHER_STOP_WORDS = List.of("the", "be", "to", "of", "and", "that", "have", "with");

    /** Per ASCII character: 1 for an upper-case letter, 2 for a lower-case one, else 0. */
    private static final byte[] ASCII_CASE = new byte[128];

    static {
        for (char c = 'A'; c <= 'Z'; c++) {
            ASCII_CASE[c] = 1;
            ASCII_CASE[Character.toLowerCase(c)] = 2;
        }
    }

    private final WordSet stopWords;
    private final int[] shortThresholds;
    private final int[] longThresholds;
    /** The stop words up to {@link PackedChars#MAX_CHARS} units; {@link #stopWords} has them all. */
    private final PackedWordSet stopShort;
    /** The short words met, with their facts and whether already seen in the current document. */
    private final ShortWordTable shortWords = new ShortWordTable();
    /** A document's distinct words that {@link #shortWords} does not count: short ones it had no room for, and long ones. */
    private final PackedWordSet distinctTaken = new PackedWordSet();
    private final TextRegionSet distinctLong = new TextRegionSet();
    /**
     * Words per length, those longer than every threshold sharing the last slot (cleared per document). Thresholds
     * go up to any int, as datatrove's: the slots stop at {@link #MAX_LENGTH_SLOTS}, and the lengths of the words in the
     * last slot are then kept in {@link #lengthsBeyond} (a threshold of 2^31 - 1 made an array of that size, or overflowed).
     */
    private final int[] wordsByLength;
    private static final int MAX_LENGTH_SLOTS = 256;
    /** Whether a threshold reaches past the slots. */
    private final boolean thresholdBeyondSlots;
    private int[] lengthsBeyond = new int[16];
    private int wordsBeyond;
    /** The current document's counts (see {@link #startDocument}). */
    private long n;
    private long totalLength;
    private long upper;
    private long title;
    private long stop;
    private long distinct;
    private int lineBreaks;
    /** The tokens of one chunk, and the text's character classes, reused from chunk to chunk and document to document. */
    private final Tokens chunkTokens = new Tokens(16);
    private long[] classBits = new long[64];
    /** A sum of the slots loaded ahead, kept so that the compiler does not drop the loads. */
    private long touched;
    /** Class bitmaps for texts up to a megabyte are kept for the next document; larger ones are not. */
    private static final int MAX_KEPT_CLASS_BITS = 1 << 15;

    public WordStats(StepArgs args) {
        super(args);
        // datatrove's WordStats fails on None here (gopher_quality takes it for its default list)
        args.refuseNull(": datatrove's word_stats fails on None; leave the key out for the 8 Gopher stop words, or give a"
                + " list ([] for none)", "stop_words");
        List<String> stopList = args.words("stop_words", GOPHER_STOP_WORDS, "its substrings (\"he\" in \"the\" is true)");
        stopWords = new WordSet(stopList);
        stopShort = PackedWordSet.of(stopList);
        shortThresholds = StatArgs.ints(args, "short_word_max_chars_threshold", new int[] {3}, true);
        longThresholds = StatArgs.ints(args, "long_word_max_chars_threshold", new int[] {7}, true);
        int maxThreshold = 0;
        for (int k : shortThresholds) {
            maxThreshold = Math.max(maxThreshold, k);
        }
        for (int k : longThresholds) {
            maxThreshold = Math.max(maxThreshold, k);
        }
        wordsByLength = new int[Math.min(maxThreshold, MAX_LENGTH_SLOTS) + 2];
        thresholdBeyondSlots = maxThreshold > MAX_LENGTH_SLOTS;
        EnglishText.requireEnglish(args);
        List<String> names = new ArrayList<>(List.of("n_words", "avg_word_length", "avg_words_per_line"));
        for (int k : shortThresholds) {
            names.add("short_word_ratio_" + k);
        }
        for (int k : longThresholds) {
            names.add("long_word_ratio_" + k);
        }
        names.addAll(List.of("type_token_ratio", "uppercase_word_ratio", "capitalized_word_ratio", "stop_word_ratio"));
        declare(names, StatArgs.firstIntegral(names.size()));
    }

    /**
     * Counts a document's words chunk by chunk ({@link #countByChunks}), or token by token when the thread
     * has the text's tokens already (sentence_stats asked first). Then the ratios.
     */
    @Override
    protected void extract(String text, double[] out) {
        char[] chars = charsOf(text);
        Tokens tokens = SharedTokens.ifTokenized(text);
        if (tokens != null) {
            countByTokens(text, chars, tokens);
        } else {
            countByChunks(text, chars);
        }
        int textLength = text.length();
        int lines = lineBreaks + (textLength > 0 && !PyText.isLineBreak(chars[textLength - 1]) ? 1 : 0);
        int i = 0;
        out[i++] = n;
        out[i++] = ratio(totalLength, n);
        out[i++] = ratio(n, lines);
        for (int k : shortThresholds) {
            out[i++] = ratio(wordsUpTo(k), n);
        }
        for (int k : longThresholds) {
            out[i++] = ratio(n - wordsUpTo(k - 1L), n);
        }
        out[i++] = ratio(distinct, n);
        out[i++] = ratio(upper, n);
        out[i++] = ratio(title, n);
        out[i] = ratio(stop, n);
    }

    /** The document's words of at most {@code k} code points. */
    private long wordsUpTo(long k) {
        int[] byLength = wordsByLength;
        int last = byLength.length - 1;
        long c = 0;
        for (int len = 0; len <= Math.min(k, last - 1); len++) {
            c += byLength[len];
        }
        // the last slot holds the words of its length and longer; only a threshold past the slots asks for some of them,
        // and then their lengths are kept
        for (int w = 0; k >= last && w < wordsBeyond; w++) {
            c += lengthsBeyond[w] <= k ? 1 : 0;
        }
        return c;
    }

    /** Empties the counts and the per-document sets for a document of {@code textLength} characters. */
    private void startDocument(char[] chars, int textLength) {
        n = 0;
        totalLength = 0;
        upper = 0;
        title = 0;
        stop = 0;
        distinct = 0;
        lineBreaks = 0;
        Arrays.fill(wordsByLength, 0);
        wordsBeyond = 0;
        shortWords.nextDocument();
        distinctTaken.clear(textLength >> 6); // a few per cent of the words, in large documents
        distinctLong.clear(chars, textLength / (PackedChars.MAX_CHARS + 1) + 1); // room for every long word
    }

    /**
     * Counts the words chunk by chunk (runs of non-whitespace) rather than tokenizing the text. The short-word
     * table remembers what the tokenizer does with a short chunk, when that depends on the chunk alone: a
     * chunk it leaves whole as one word (most: "the", "2024") is marked so in the word's slot, and seen
     * again it is settled by that one lookup; a chunk it splits ("it.", "(the") is kept with its token
     * ends. Other chunks (new ones, long ones, and the few whose tokens depend on the chunks around them,
     * such as "):" after "(") are tokenized on their own ({@link EnglishText#chunkTokens}). Tokenizing the
     * whole text cost more than word_stats' own counting; now most chunks cost one lookup.
     *
     * <p>The lines of {@code splitlines()} are counted from the whitespace runs: every line break is
     * Python whitespace, and the one whitespace character that is not part of a token, a single space
     * after a word, is not a line break.
     */
    private void countByChunks(String text, char[] chars) {
        int length = text.length();
        startDocument(chars, length);
        // as the tokenizer's own copy: a lone high surrogate at the end never pairs with a stale character
        Arrays.fill(chars, length, length + PackedChars.MAX_CHARS, '\0');
        long[] bits = CharClasses.of(chars, length, classBits);
        if (bits.length <= MAX_KEPT_CLASS_BITS) {
            classBits = bits;
        }
        int[] byLength = wordsByLength;
        // the chunks found whole in the table, counted here rather than in the fields
        int words = 0;
        long wordsLength = 0;
        long facts = 0; // per fact, a count in its own 16 bits; flushed before it could overflow
        // Each turn finds the next chunk and loads its slot before looking at this one: the slot's first load
        // waits for memory, and meanwhile this chunk is counted.
        int nextStart = 0;
        int nextEnd = 0;
        long n0 = 0;
        long n1 = 0;
        long n2 = 0;
        long nextHash = 0;
        long touched = 0;
        while (true) {
            int start = nextStart;
            int end = nextEnd;
            long k0 = n0;
            long k1 = n1;
            long k2 = n2;
            long hash = nextHash;
            nextStart = end < length ? CharClasses.nextNonSpace(bits, end, length) : length;
            if (nextStart - end > 1 || (nextStart > end && chars[end] != ' ')) {
                lineBreaks += lineBreaks(chars, end, nextStart);
            }
            nextEnd = nextStart < length ? CharClasses.nextSpace(bits, nextStart) : length;
            if (nextEnd - nextStart <= PackedChars.MAX_CHARS) {
                n0 = PackedChars.pack(chars, nextStart, nextEnd, 0);
                n1 = PackedChars.pack(chars, nextStart, nextEnd, 1);
                n2 = PackedChars.pack(chars, nextStart, nextEnd, 2);
                nextHash = PackedChars.hash(n0, n1, n2);
                touched += shortWords.peek(nextHash, nextEnd - nextStart);
            }
            if (start == end) {
                if (start == length) {
                    break;
                }
                continue; // the text starts with whitespace
            }
            int known = ShortWordTable.TAKEN; // nothing to record for a long chunk
            if (end - start <= PackedChars.MAX_CHARS) {
                known = shortWords.visitChunk(k0, k1, k2, end - start, hash);
                if (known >= 0) {
                    long f = fromTable(known);
                    words++;
                    wordsLength += f >>> 32;
                    byLength[(int) Math.min(f >>> 32, byLength.length - 1)]++;
                    facts += (f & UPPER) | (f & TITLE) << 15 | (f & STOP) << 30 | (f & FIRST) << 45;
                    if ((words & 0x7FFF) == 0) {
                        flushFacts(facts);
                        facts = 0;
                    }
                    continue;
                }
                if (known == ShortWordTable.SPLIT) {
                    int ends = shortWords.splitEnds();
                    for (int from = start; from < end; ends >>>= 4) {
                        int to = start + (ends & 0xF);
                        count(wordFacts(text, chars, from, to, false));
                        from = to;
                    }
                    continue;
                }
            }
            Tokens pieces = chunkTokens;
            boolean alone = EnglishText.chunkTokens(chars, length, start, end, pieces);
            if (alone && known == ShortWordTable.ABSENT && pieces.size() > 1 && pieces.size() <= ShortWordTable.MAX_SPLIT_TOKENS) {
                shortWords.recordSplit(k0, k1, k2, end - start, tokenEnds(start, pieces));
            }
            boolean whole = alone && pieces.size() == 1;
            for (int t = 0; t < pieces.size(); t++) {
                count(wordFacts(text, chars, pieces.start(t), pieces.end(t), whole));
            }
        }
        this.touched = touched;
        n += words;
        totalLength += wordsLength;
        flushFacts(facts);
    }

    /** The ends of {@code pieces}, a chunk's tokens, relative to its {@code start}, as {@link ShortWordTable#splitEnds}. */
    private static int tokenEnds(int start, Tokens pieces) {
        int ends = 0;
        for (int t = pieces.size() - 1; t >= 0; t--) {
            ends = ends << 4 | (pieces.end(t) - start);
        }
        return ends;
    }

    /** Adds the four 16-bit fact counts of {@link #countByChunks}. */
    private void flushFacts(long facts) {
        upper += facts & 0xFFFF;
        title += facts >>> 16 & 0xFFFF;
        stop += facts >>> 32 & 0xFFFF;
        distinct += facts >>> 48;
    }

    /** Counts the words among the text's tokens: the tokens stripped, empty ones dropped, as datatrove. */
    private void countByTokens(String text, char[] chars, Tokens tokens) {
        startDocument(chars, text.length());
        for (int t = 0; t < tokens.size(); t++) {
            int start = tokens.start(t);
            int end = tokens.end(t);
            if (PyText.isSpace(chars[start])) {
                lineBreaks += lineBreaks(chars, start, end);
            } else {
                count(wordFacts(text, chars, start, end, false));
            }
        }
    }

    private void count(long f) {
        n++;
        long length = f >>> 32;
        totalLength += length;
        int slot = (int) Math.min(length, wordsByLength.length - 1);
        wordsByLength[slot]++;
        if (thresholdBeyondSlots && slot == wordsByLength.length - 1) {
            if (wordsBeyond == lengthsBeyond.length) {
                lengthsBeyond = Arrays.copyOf(lengthsBeyond, 2 * wordsBeyond);
            }
            lengthsBeyond[wordsBeyond++] = (int) length; // a word's length is an int: it is part of a String
        }
        upper += f & UPPER;
        title += f >>> 1 & 1;
        stop += f >>> 2 & 1;
        distinct += f >>> 3 & 1;
    }

    /**
     * The facts of the word {@code text[start:end]}, FIRST set on its first appearance in the document. A
     * word of up to {@link PackedChars#MAX_CHARS} units (nearly all) is read as three longs: its case from
     * their bits, stop word and distinct by comparing them, with no loop over its characters (whose varying
     * lengths made every word's loop exit a mispredicted branch). Longer words are read once for their hash,
     * length and case. {@code wholeChunk}: the word is a chunk the tokenizer leaves whole, to be marked so.
     */
    private long wordFacts(String text, char[] chars, int start, int end, boolean wholeChunk) {
        if (end - start > PackedChars.MAX_CHARS) {
            return facts(text, chars, start, end, false);
        }
        long k0 = PackedChars.pack(chars, start, end, 0);
        long k1 = PackedChars.pack(chars, start, end, 1);
        long k2 = PackedChars.pack(chars, start, end, 2);
        long hash = PackedChars.hash(k0, k1, k2);
        int known = shortWords.visit(k0, k1, k2, end - start, hash);
        if (known >= 0) {
            if (wholeChunk) {
                shortWords.markWholeChunk();
            }
            return fromTable(known);
        }
        long f = PackedChars.ascii(k0, k1, k2) ? asciiFacts(k0, k1, k2, end - start) : facts(text, chars, start, end, true);
        f |= stopShort.contains(k0, k1, k2, end - start, hash) ? STOP : 0;
        if (known == ShortWordTable.ABSENT) {
            shortWords.record(k0, k1, k2, end - start, forTable(f));
            if (wholeChunk) {
                shortWords.markWholeChunk();
            }
            return f | FIRST;
        }
        return f | (distinctTaken.add(k0, k1, k2, end - start, hash) == 1 ? FIRST : 0);
    }

    /*
     * A word's facts as a long: these four bits, and the length in code points in the high half. The
     * short-word table keeps the first three and the length in 28 bits (forTable, fromTable).
     */
    private static final long UPPER = 1; // str.isupper
    private static final long TITLE = 2; // str.istitle
    private static final long STOP = 4;
    private static final long FIRST = 8; // the word's first appearance in the document

    private static int forTable(long facts) {
        return (int) (facts >>> 32) << 3 | (int) facts & 7;
    }

    private static long fromTable(int known) {
        return (long) (known >>> 3 & 0xFF) << 32 | known & 7 | ((known & ShortWordTable.FIRST_IN_DOCUMENT) != 0 ? FIRST : 0);
    }

    /** str.isupper, str.istitle and the length of an ASCII word packed as (k0, k1, k2). */
    private static long asciiFacts(long k0, long k1, long k2, int length) {
        int upper = PackedChars.asciiInRange(k0, k1, k2, 'A', 'Z');
        int lower = PackedChars.asciiInRange(k0, k1, k2, 'a', 'z');
        int afterCased = (upper | lower) << 1;
        boolean isUpper = upper != 0 & lower == 0;
        boolean isTitle = (upper | lower) != 0 & (upper & afterCased) == 0 & (lower & ~afterCased) == 0;
        return (long) length << 32 | (isUpper ? UPPER : 0) | (isTitle ? TITLE : 0);
    }

    /**
     * The facts of {@code text[start:end]}, read from its characters: in one pass its String hash, and
     * str.isupper / str.istitle for an ASCII word, branch-free. For a short word ({@code isShort}) the caller
     * looks up stop word and distinct, and STOP and FIRST are left 0.
     */
    private long facts(String text, char[] chars, int start, int end, boolean isShort) {
        int h = 0;
        int any = 0; // bit 0: an upper-case letter, bit 1: a lower-case one
        int notTitle = 0;
        int previousCased = 0;
        int orAll = 0;
        for (int i = start; i < end; i++) {
            char c = chars[i];
            h = 31 * h + c;
            orAll |= c;
            int kind = ASCII_CASE[c & 0x7F];
            int cased = (kind | kind >> 1) & 1;
            notTitle |= (kind & previousCased) | (kind >> 1 & ~previousCased & 1);
            any |= kind;
            previousCased = cased;
        }
        boolean ascii = orAll < 0x80;
        boolean anyUpper = (any & 1) != 0;
        boolean anyLower = (any & 2) != 0;
        int length = ascii ? end - start : Character.codePointCount(chars, start, end - start);
        boolean isUpper = ascii ? anyUpper && !anyLower : PyText.isUpperWord(text, start, end);
        boolean isTitle = ascii ? notTitle == 0 && (anyUpper || anyLower) : PyText.isTitleWord(text, start, end);
        long f = (long) length << 32 | (isUpper ? UPPER : 0) | (isTitle ? TITLE : 0);
        if (!isShort) {
            f |= (stopWords.contains(chars, start, end, h) ? STOP : 0) | (distinctLong.add(start, end, h) ? FIRST : 0);
        }
        return f;
    }

    /** The line breaks of {@code splitlines()} in {@code chars[start:end]}, "\r\n" counting once. */
    private static int lineBreaks(char[] chars, int start, int end) {
        int breaks = 0;
        for (int i = start; i < end; i++) {
            char c = chars[i];
            if (PyText.isLineBreak(c)) {
                breaks++;
                if (c == '\r' && i + 1 < end && chars[i + 1] == '\n') {
                    i++;
                }
            }
        }
        return breaks;
    }
}
