package io.sluice.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.text.EnglishText;
import io.sluice.text.TextNormalizer;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Our MinHash building blocks against datatrove's values in golden/minhash/PARAMS.json. */
class MinhashParamsTest {
    private static JsonNode params;

    @BeforeAll
    static void load() throws IOException {
        Path file = Path.of(System.getProperty("sluice.shared", "/work/shared"), "data/golden/minhash/PARAMS.json");
        Assumptions.assumeTrue(Files.isRegularFile(file), "golden data not present");
        params = new ObjectMapper().readTree(file.toFile());
    }

    static long[] longs(JsonNode arr) {
        long[] out = new long[arr.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new BigInteger(arr.get(i).asText()).longValue();
        }
        return out;
    }

    @Test
    void permutationParametersEqualNumpyRandomState() {
        MinhashParameters p = MinhashParameters.of(1, 112);
        assertArrayEquals(longs(params.get("a")), p.a());
        assertArrayEquals(longs(params.get("b")), p.b());
    }

    @Test
    void simplifiedTextEqualsDatatrove() {
        for (JsonNode v : params.get("test_vectors")) {
            assertEquals(v.get("simplified_text").asText(), TextNormalizer.simplify(v.get("text").asText()),
                    v.get("id").asText());
            assertEquals(v.get("n_tokens").asInt(), EnglishText.words(v.get("simplified_text").asText()).size());
        }
    }

    @Test
    void shingleHashesEqualXxh64() {
        for (JsonNode v : params.get("test_vectors")) {
            JsonNode shingles = v.get("first_10_shingles");
            long[] expected = longs(v.get("first_10_shingle_xxh64"));
            for (int i = 0; i < shingles.size(); i++) {
                byte[] b = shingles.get(i).asText().getBytes(StandardCharsets.UTF_8);
                assertEquals(expected[i], XxHash.xxh64(b, 0, b.length), shingles.get(i).asText());
            }
            long[] ours = new ShingleSigner(MinhashConfig.DEFAULT).shingles(v.get("text").asText());
            assertEquals(v.get("n_shingles").asInt(), ours.length);
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], ours[i]);
            }
        }
    }

    @Test
    void signaturesEqualDatatrove() {
        ShingleSigner signer = new ShingleSigner(MinhashConfig.DEFAULT);
        long[] sig = new long[112];
        for (JsonNode v : params.get("test_vectors")) {
            assertTrue(signer.sign(v.get("text").asText(), sig));
            assertArrayEquals(longs(v.get("signature_112")), sig, v.get("id").asText());
        }
    }

    @Test
    void xxhashKnownAnswers() {
        // reference values of the xxHash specification's test suite (empty input, seed 0)
        assertEquals(0xEF46DB3751D8E999L, XxHash.xxh64(new byte[0], 0, 0));
        assertEquals(0x02CC5D05, XxHash.xxh32(new byte[0], 0, 0));
        byte[] abc = "abc".getBytes(StandardCharsets.UTF_8);
        assertEquals(0x44BC2CF5AD770999L, XxHash.xxh64(abc, 0, 3));
        assertEquals(0x32D153FF, XxHash.xxh32(abc, 0, 3));
    }
}
