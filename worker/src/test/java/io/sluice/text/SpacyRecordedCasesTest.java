package io.sluice.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * 3,000 random texts built from fragments that hit every tokenizer rule (contractions, abbreviations,
 * emoticons, URLs, e-mails, IPs, units, currencies, ellipses, hyphens, quotes, emoji, exotic whitespace),
 * each with the tokens and sentences spaCy 3.8 produced for it ({@code spacy-cases.jsonl.gz}, made by
 * {@code spacy-cases-generator.py} next to it). Every token list and sentence list must be identical.
 */
class SpacyRecordedCasesTest {

    @Test
    void tokensAndSentencesEqualSpacys() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int cases = 0;
        try (InputStream resource = getClass().getResourceAsStream("spacy-cases.jsonl.gz")) {
            assertNotNull(resource, "spacy-cases.jsonl.gz on the test classpath");
            BufferedReader reader = new BufferedReader(new InputStreamReader(new GZIPInputStream(resource),
                    StandardCharsets.UTF_8));
            String line;
            while ((line = reader.readLine()) != null) {
                JsonNode c = json.readTree(line);
                String text = c.get("text").asText();
                Tokens tokens = EnglishText.tokenize(text);
                List<String> actual = new ArrayList<>();
                for (int i = 0; i < tokens.size(); i++) {
                    actual.add(tokens.text(i));
                }
                assertEquals(strings(c.get("tokens")), actual, () -> "tokens of " + json.valueToTree(text));
                assertEquals(strings(c.get("sentences")), EnglishText.sentences(tokens),
                        () -> "sentences of " + json.valueToTree(text));
                cases++;
            }
        }
        assertEquals(3000, cases);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
