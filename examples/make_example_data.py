#!/usr/bin/env python3
"""Writes examples/data/*.jsonl.gz: a small corpus made for Sluice's quickstart (no third-party text).

Prose documents are assembled from sentences written for this file; some documents are
boilerplate, lists or near-duplicates, so that every filter and the dedup step have work to do.
Deterministic: the same script always writes the same bytes (gzip mtime 0).
"""
import gzip, json, random, pathlib

rng = random.Random(7)
# Sentences are built from slots, so documents on one topic share words but rarely long phrases.
SLOTS = {
    "who": ["The miller", "An old fisherman", "My neighbour", "The council", "A young teacher", "The baker",
            "Our guide", "The astronomer", "A visiting student", "The night watchman", "Her grandfather", "The engineer"],
    "verb": ["noticed", "wrote about", "measured", "photographed", "explained", "remembered", "argued about",
             "described", "questioned", "recorded", "sketched", "talked about"],
    "when": ["early one morning", "after the long winter", "during the harvest", "on a quiet Sunday",
             "before the storm arrived", "late in the evening", "at the end of the summer", "in the first week of spring",
             "while the market was closing", "as the fog lifted"],
    "why": ["because nobody else had done it", "so that the children would understand", "to settle an old argument",
            "for a small local newspaper", "since the records were incomplete", "out of simple curiosity",
            "to help the new families", "before the details were forgotten"],
}
TOPICS = {
    "rivers": ["the level of the river", "the herons in the reeds", "the old stone bridge", "the flood walls by the market",
               "the shallow pool below the mill", "the branches carried down from the hills", "the calm bend where children swim"],
    "bread": ["the slow rise of the dough", "the crust of the rye loaves", "the wet whole wheat dough", "the steam in the oven",
              "the way bakers score a loaf", "the queue outside the bakery", "the crumbs made from old bread"],
    "stars": ["the band of the Milky Way", "the rings of Saturn", "the moons of Jupiter", "a meteor shower over the hill",
              "the circles traced around the pole", "the distance to the nearest stars", "the darkest night of the month"],
    "software": ["a test written before the fix", "the ten minute build", "the log lines of the service",
                 "the file renamed only when complete", "the review of a small change", "the slow part of the program",
                 "the notes of the last release"],
}

def sentence(topic):
    pick = lambda k: rng.choice(SLOTS[k])
    forms = [
        lambda: f"{pick('who')} {pick('verb')} {rng.choice(TOPICS[topic])} {pick('when')}.",
        lambda: f"{pick('when').capitalize()}, {pick('who').lower()} {pick('verb')} {rng.choice(TOPICS[topic])} {pick('why')}.",
        lambda: f"Nobody had {pick('verb')} {rng.choice(TOPICS[topic])} {pick('why')}, so {pick('who').lower()} did.",
        lambda: f"Was it {rng.choice(TOPICS[topic])} that {pick('who').lower()} {pick('verb')} {pick('when')}?",
    ]
    return rng.choice(forms)()

JUNK = ["Home | About | Contact | Login", "Click here to subscribe!!!", "Copyright 2024. All rights reserved.",
        "Menu\nSearch\nCart (0)\nSign in", "Loading...", "404 page not found"]
DOMAINS = ["example.org", "news.example.com", "blog.example.net", "docs.example.co.uk", "forum.example.org"]

def prose(topic, n_paragraphs):
    return "\n\n".join(" ".join(sentence(topic) for _ in range(rng.randint(3, 6))) for _ in range(n_paragraphs))

docs = []
for i in range(160):
    topic = rng.choice(sorted(TOPICS))
    text = prose(topic, rng.randint(1, 5))
    docs.append({"text": text, "topic": topic})
for i in range(30):
    docs.append({"text": "\n".join(rng.sample(JUNK, rng.randint(1, 4))), "topic": "boilerplate"})
for i in range(20):
    topic = rng.choice(sorted(TOPICS))
    items = "\n".join("- " + rng.choice(TOPICS[topic]) for _ in range(5))
    docs.append({"text": items, "topic": topic})
for i in range(30):  # near-duplicates: a prose document with a changed closing line
    src = docs[rng.randrange(160)]
    docs.append({"text": src["text"] + "\n\nShared from " + rng.choice(DOMAINS) + ".", "topic": src["topic"]})
rng.shuffle(docs)

out = pathlib.Path(__file__).parent / "data"
out.mkdir(exist_ok=True)
for part in range(4):
    chunk = docs[part::4]
    lines = []
    for j, d in enumerate(chunk):
        doc_id = f"example-{part}-{j:03d}"
        url = f"https://{rng.choice(DOMAINS)}/{d['topic']}/{j}"
        lines.append(json.dumps({"id": doc_id, "text": d["text"],
                                 "metadata": {"url": url, "topic": d["topic"]}}, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode()
    with open(out / f"part-{part}.jsonl.gz", "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(data)
print(f"wrote {len(docs)} documents to {out}")
