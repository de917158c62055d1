# Generates worker/src/test/resources/io/sluice/text/spacy-cases.jsonl.gz: random strings built from
# fragments that exercise spaCy's English tokenizer rules, with spaCy's tokens and sentences.
# Run with spaCy 3.8 installed: python spacy-cases-generator.py spacy-cases.jsonl.gz
import gzip, json, random, sys
import spacy
nlp = spacy.blank("en"); nlp.add_pipe("sentencizer")
random.seed(20261122)
frags = list("abcxyzABCXYZ0123456789.,;:!?'\"()[]{}<>-–—~_#*&%$£€+=/\\^@|`´‘’“”«»…·¿¡°²³µ§©®™☺😀👍🏽𝟘кдПαΩاب中日𠀀한ঁ") + \
  [" ", " ", " ", "  ", "\n", "\n\n", "\t", "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\u200b", "\u2009",
   "don't", "dont", "cannot", "gonna", "can't", "I'm", "e.g.", "U.S.", "Dr.", "Ph.D.", ":)", ":-)", "(:", "<3", "a.", "n't", "'s", "'S",
   "’s", "http://", "https://", "www.", ".com", ".org", "example", "user@", "mail", "://", "..", "...", "....", "10", "km", "km/h", "kg", "US$", "C$",
   "°F", "°C.", "5pm", "3a.m.", "and/or", "w/o", "''", "--", "---", "——", "o.O", "^_^", "¯\\(ツ)/¯", "127.0.0.1", "8.8.8.8", ":8080", "/path?q=1#f",
   "Hello", "world", "The", "end", "word", "x", "yall", "y'all", "'cause", "'em", "lovin'", "C++", "\\n", "\\t", "<space>", "1a.m.", "12pm"]
with gzip.open(sys.argv[1], "wt", encoding="utf-8") as f:
    for n in range(3000):
        text = "".join(random.choice(frags) for _ in range(random.randint(1, 24)))
        with nlp.memory_zone():
            doc = nlp(text)
            sents = [s.text.strip() for s in doc.sents if s.text.strip()]
            f.write(json.dumps({"text": text, "tokens": [t.text for t in doc], "sentences": sents}) + "\n")
