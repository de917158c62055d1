package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Sentence splits checked against spaCy 3.8's {@code sentencizer} on {@code spacy.blank("en")}. */
class SentencizerTest {

    private static void assertSentences(String text, String... expected) {
        assertEquals(List.of(expected), EnglishText.sentences(text), () -> "sentences of " + text);
    }

    @Test
    void splitsAfterSentenceFinalPunctuation() {
        assertSentences("Hello world. This is it! Is it? Yes.", "Hello world.", "This is it!", "Is it?", "Yes.");
        assertSentences("Version 3.5 is out. Get it", "Version 3.5 is out.", "Get it");
        assertSentences("Mr. Smith went home. He slept.", "Mr. Smith went home.", "He slept.");
    }

    @Test
    void closingPunctuationStaysWithItsSentence() {
        assertSentences("He said \"Stop.\" Then he left.", "He said \"Stop.\"", "Then he left.");
        assertSentences("(It ended.) Next one.", "(It ended.)", "Next one.");
        assertSentences("Really?!? Sure.", "Really?!?", "Sure.");
        assertSentences("Wow!!! Nice", "Wow!!!", "Nice");
    }

    @Test
    void tokensThatAreNotSingleFinalCharactersDoNotEndSentences() {
        assertSentences("Wait... what", "Wait... what"); // "..." is one token, not "."
        assertSentences("U.S. e.g. Dr. Smith", "U.S. e.g. Dr. Smith");
        assertSentences("Hello.World", "Hello.", "World"); // but an infix "." is its own token
    }

    @Test
    void newlinesAloneDoNotSplitButWhitespaceTokensCount() {
        assertSentences("Items:\n- one\n- two", "Items:\n- one\n- two");
        assertSentences("No end punctuation\nstill same", "No end punctuation\nstill same");
        assertSentences("Hi.\n\nNew paragraph here", "Hi.", "New paragraph here");
        // the whitespace token after "Done." starts a sentence, so the "!" is a sentence of its own
        assertSentences("Done. \n ! Next", "Done.", "!", "Next");
    }

    @Test
    void emptyAndBlankTextHaveNoSentences() {
        assertSentences("");
        assertSentences(" \n\t ");
    }
}
