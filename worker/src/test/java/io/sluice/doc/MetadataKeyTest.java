package io.sluice.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.job.JobException;
import io.sluice.job.StepArgs;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetadataKeyTest {
    private static Document doc(Map<String, Object> metadata) {
        return new Document("d", "text", new HashMap<>(metadata));
    }

    @Test
    void aKeyAndDatatrovesSpellingOfItReadTheSameValue() {
        Document d = doc(Map.of("url", "https://a.org/"));
        assertEquals("https://a.org/", MetadataKey.of("url").valueIn(d));
        assertEquals("https://a.org/", MetadataKey.of("metadata.url").valueIn(d));
        assertNull(MetadataKey.of("metadata.link").valueIn(d));
    }

    @Test
    void dottedKeysReachIntoNestedMetadata() {
        Document d = doc(Map.of("source", Map.of("url", "https://b.org/"), "warc.url", "flat"));
        assertEquals("https://b.org/", MetadataKey.of("source.url").valueIn(d));
        assertEquals("https://b.org/", MetadataKey.of("metadata.source.url").valueIn(d));
        assertEquals("flat", MetadataKey.of("warc.url").valueIn(d), "a flat key with a dot is found as written");
        assertNull(MetadataKey.of("source.url.host").valueIn(d));
        assertNull(MetadataKey.of("missing.url").valueIn(d));
    }

    @Test
    void metadataNestedUnderTheNameMetadataIsReachedByItsFullPath() {
        Document d = doc(Map.of("metadata", Map.of("url", "https://c.org/"))); // Dolma's shape
        assertNull(MetadataKey.of("metadata.url").valueIn(d));
        assertEquals("https://c.org/", MetadataKey.of("metadata.metadata.url").valueIn(d));
    }

    @Test
    void anEmptyKeyIsAnErrorNamingTheOption() {
        for (String bad : new String[] {"", "metadata.", "url.", ".url"}) {
            JobException e = assertThrows(JobException.class,
                    () -> MetadataKey.urlKey(StepArgs.of(Map.of("url_key", bad))), bad);
            assertTrue(e.getMessage().contains("url_key") && e.getMessage().contains("must name a metadata key"), e.getMessage());
        }
        assertEquals("metadata.url", MetadataKey.urlKey(StepArgs.of(Map.of())).toString());
    }
}
