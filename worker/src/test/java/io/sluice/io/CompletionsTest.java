package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionsTest {
    /**
     * Ranks from 100000 on are counted complete: their six-digit markers were not, so submit sent those ranks again on
     * every submit, and the worker refused the stages after them. Names that are not a rank's are left out.
     */
    @Test
    void completedRanksCountsSixDigitMarkersAndNoOtherNames(@TempDir Path stage) throws IOException {
        for (int rank : new int[] {0, 99_999, 100_000, 3_999_999}) {
            Completions.markComplete(stage, rank);
        }
        for (String stray : new String[] {"0000000000001", "123456789012", "12a45", "000001", "00007.tmp"}) {
            Files.writeString(Completions.folder(stage).resolve(stray), "");
        }
        BitSet done = Completions.completedRanks(stage);
        assertEquals("{0, 99999, 100000, 3999999}", done.toString());
        assertTrue(Completions.isComplete(stage, 100_000));
        assertEquals(-1, RankName.parse("0100000"));
        assertEquals(2_147_483_647, RankName.parse("2147483647"));
        assertEquals(-1, RankName.parse("2147483648"));
    }
}
