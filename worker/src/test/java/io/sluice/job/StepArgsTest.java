package io.sluice.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StepArgsTest {
    /** Quoted numbers are taken as integer keys take them; before, "50" was an integer but "0.1" not a number. */
    @Test
    void quotedNumbersAreNumbersAsQuotedIntegersAreIntegers() {
        StepArgs a = new StepArgs("gopher_quality", Map.of("max_symbol_word_ratio", "0.1", "min_doc_words", "50",
                "max", " 1e3 ", "bad", "ten percent", "nan", "NaN"));
        assertEquals(0.1, a.number("max_symbol_word_ratio", 0));
        assertEquals(50, a.integer("min_doc_words", 0));
        assertEquals(1000.0, a.number("max", 0));
        assertEquals("gopher_quality: 'bad' must be a number, got 'ten percent'",
                assertThrows(JobException.class, () -> a.number("bad", 0)).getMessage());
        assertThrows(JobException.class, () -> a.number("nan", 0), "not a number a job file means");
    }

    /** A leading ~ or ~user is a home folder, as datatrove (fsspec) and a shell read it: before, ~/out made a folder "~" here. */
    @Test
    void aLeadingTildeIsTheHomeFolder() {
        String home = System.getProperty("user.home");
        StepArgs a = new StepArgs("read_jsonl", Map.of("path", "~/data/in", "output", "~", "other", "a/~/b",
                "user", "~no-such-user-here/x", "root", "~root/data", "rootHome", "~root"));
        assertEquals(java.nio.file.Path.of(home, "data/in"), a.path("path"));
        assertEquals(java.nio.file.Path.of(home), a.optionalPath("output", null));
        assertEquals(java.nio.file.Path.of("a/~/b"), a.path("other"));
        // another user's home, by the system's user database (before, a folder named "~root" in the current one);
        // a user it does not know is left as written, as Python's expanduser leaves it
        assertEquals(java.nio.file.Path.of("/root/data"), a.path("root"));
        assertEquals(java.nio.file.Path.of("/root"), a.path("rootHome"));
        assertEquals(java.nio.file.Path.of("~no-such-user-here/x"), a.path("user"));
        assertEquals(null, a.optionalPath("absent", null));
        Job job = JobFile.parse("job.yaml", new java.util.HashMap<>(Map.of("logging_dir", "~/logs",
                "stages", java.util.List.of(Map.of("name", "a", "steps", java.util.List.of(Map.of("read_jsonl", Map.of("path", "~/in"))))))), JobFile.SlurmCheck.NONE);
        assertEquals(java.nio.file.Path.of(home, "logs"), job.loggingDir());
    }
}
