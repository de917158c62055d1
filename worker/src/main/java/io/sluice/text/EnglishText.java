package io.sluice.text;

import io.sluice.job.StepArgs;
import java.util.ArrayList;
import java.util.List;

/**
 * English word and sentence splitting shared by filters, statistics and MinHash: the single place
 * that decides what a "word" and a "sentence" are, so all steps agree. Both follow datatrove's
 * {@code SpaCyTokenizer("en")}: spaCy's blank English tokenizer ({@link SpacyEnglishTokenizer}) and
 * its rule-based sentencizer ({@link Sentencizer}).
 */
public final class EnglishText {
    /**
     * Checks a step's {@code language} key (datatrove's, default English): only English is accepted, the
     * one language this tokenizer and sentence splitter implement.
     */
    public static void requireEnglish(StepArgs args) {
        String language = args.string("language", "en");
        // datatrove's spellings of English: its Languages constant, the ISO codes, and the codes with the script
        if (!java.util.Set.of("en", "eng", "en_Latn", "eng_Latn").contains(language)) {
            throw args.error("language", "must be English ('en', 'eng', 'en_Latn' or 'eng_Latn'; only the English tokenizer exists),"
                    + " got '" + language + "'");
        }
    }

    private EnglishText() {
    }

    /** datatrove's {@code word_tokenize(text)} for English: token texts, stripped, empty ones dropped. */
    public static List<String> words(String text) {
        return words(tokenize(text));
    }

    /**
     * spaCy's tokens of {@code text}, whitespace tokens included; for callers that need both words and
     * sentences of the same text ({@link #words(Tokens)}, {@link #sentences(Tokens)}) or token offsets.
     */
    public static Tokens tokenize(String text) {
        return SpacyEnglishTokenizer.english().tokenize(text);
    }

    /** {@link #tokenize(String)} into {@code out}, which is reused (its previous content is dropped). */
    public static void tokenize(String text, Tokens out) {
        SpacyEnglishTokenizer.english().tokenize(text, out);
    }

    /** The non-whitespace token texts of already tokenized text (what {@link #words(String)} returns). */
    public static List<String> words(Tokens tokens) {
        WordSpans spans = WordSpans.of(tokens);
        List<String> out = new ArrayList<>(spans.size());
        for (int i = 0; i < spans.size(); i++) {
            out.add(spans.word(i));
        }
        return out;
    }

    /**
     * Does the tokenizer keep {@code text[start:end]}, a run of ASCII letters between spaces, whole as a
     * single word? (It does unless the run is a special case such as "dont" or "cannot".) Lets callers
     * that split on spaces skip the tokenizer for most words.
     */
    public static boolean isWholeWord(String text, int start, int end) {
        return SpacyEnglishTokenizer.english().keepsLettersWhole(text, start, end);
    }

    /**
     * {@link #isWholeWord(String, int, int)} for {@code chars[0:length]}, which must be lower-case letters
     * a-z (simplified text's words), with no string made.
     */
    public static boolean isWholeLowercaseWord(char[] chars, int length) {
        return SpacyEnglishTokenizer.english().keepsLowercaseLettersWhole(chars, length);
    }

    /**
     * The tokens of one chunk of a text of {@code length} characters, {@code chars[start:end]}: a run of
     * non-whitespace with whitespace or the text's ends on both sides. They go into {@code out} (its
     * previous content dropped) as offsets into {@code chars}, as tokenizing the whole text gives them.
     * Returns true when they depend on the chunk's characters alone, false when the chunks around it had
     * a say (a special case spanning several of its tokens, such as "):" or "a.", is merged or not
     * depending on the matches around it). Lets a step that counts words remember what it learnt per
     * chunk and skip the tokenizer for the chunks it has seen. {@code chars} must have
     * {@link PackedChars#MAX_CHARS} readable characters after {@code end}.
     */
    public static boolean chunkTokens(char[] chars, int length, int start, int end, Tokens out) {
        return SpacyEnglishTokenizer.english().chunkTokens(chars, length, start, end, out);
    }

    /** {@link #words(Tokens)} as offsets into the text, for steps that need no word strings. */
    public static WordSpans wordSpans(Tokens tokens) {
        return WordSpans.of(tokens);
    }

    /** datatrove's {@code split_into_sentences(text)} for English: sentence texts, stripped, empty ones dropped. */
    public static List<String> sentences(String text) {
        return sentences(tokenize(text));
    }

    /** The sentences of already tokenized text (what {@link #sentences(String)} returns). */
    public static List<String> sentences(Tokens tokens) {
        return Sentencizer.sentences(tokens);
    }
}
