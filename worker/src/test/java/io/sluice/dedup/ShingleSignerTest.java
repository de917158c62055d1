package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Text holding U+0130 or capital sigma, which the one-pass simplification declines, is simplified step by
 * step: its shingles equal those of the text already lowercased as Python lowercases it (dotted I becomes
 * "i" plus a combining dot, which mark removal drops; sigma is final at the end of a word).
 */
class ShingleSignerTest {
    @Test
    void textTheOnePassDeclinesIsSimplifiedStepByStep() {
        ShingleSigner signer = new ShingleSigner(MinhashConfig.DEFAULT);
        long[] declined = signer.shingles("İSTANBUL and ΣΟΦΙΑΣ, twice: İstanbul; the words go on and on");
        long[] lowered = signer.shingles("istanbul and σοφιας twice istanbul the words go on and on");
        assertEquals(7, lowered.length, "11 words, 5-word shingles");
        assertArrayEquals(lowered, declined);
    }
}
