package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Text holding capital sigma, which the one-pass simplification declines, is simplified step by step, and
 * dotted capital I is lowercased in the one pass: the shingles equal those of the text already lowercased
 * as Python lowercases it (dotted I becomes "i" plus a combining dot, which mark removal drops; sigma is
 * final at the end of a word).
 */
class ShingleSignerTest {
    @Test
    void textTheOnePassDeclinesIsSimplifiedStepByStep() {
        ShingleSigner signer = new ShingleSigner(MinhashConfig.DEFAULT);
        long[] declined = signer.shingles("İSTANBUL and ΣΟΦΙΑΣ, twice: İstanbul; the words go on and on");
        long[] dottedOnly = signer.shingles("İSTANBUL and σοφιας, twice: İstanbul; the words go on and on");
        long[] lowered = signer.shingles("istanbul and σοφιας twice istanbul the words go on and on");
        assertEquals(7, lowered.length, "11 words, 5-word shingles");
        assertArrayEquals(lowered, declined);
        assertArrayEquals(lowered, dottedOnly);
    }
}
