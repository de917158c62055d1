#!/usr/bin/env python3
"""Writes examples/data/*.jsonl.gz: a small corpus made for Sluice's quickstart (no third-party text).

Prose documents are assembled from sentences written for this file; some documents are
boilerplate, lists or near-duplicates, so that every filter and the dedup step have work to do.
Deterministic: the same script always writes the same bytes (gzip mtime 0).
"""
import gzip, json, random, pathlib

rng = random.Random(7)
TOPICS = {
    "rivers": ["The river widens below the old mill and slows into a broad, shallow pool.",
               "Herons stand in the reeds at dawn, waiting for fish to come close to the bank.",
               "In spring the water rises quickly and carries branches down from the hills.",
               "Farmers along the valley have used the river to water their fields for centuries.",
               "A stone bridge with three arches crosses the stream near the village church.",
               "Children learn to swim in the calm bend where the current is weakest.",
               "The council measures the water level every morning and posts it at the town hall.",
               "After the flood of the last decade, new walls were built to protect the market square."],
    "bread": ["Good bread needs only flour, water, salt and time.",
              "The dough is folded every half hour so that it becomes strong and elastic.",
              "A slow rise in a cool room gives the crumb a deeper and more complex flavour.",
              "Bakers score the loaf with a sharp blade just before it goes into the oven.",
              "Steam in the first minutes of baking lets the crust expand before it sets.",
              "Whole wheat flour absorbs more water than white flour and needs a wetter dough.",
              "The bakery on the corner sells out of rye loaves before nine every Saturday.",
              "Leftover bread can be dried and ground into crumbs for the next day's cooking."],
    "stars": ["On a clear night far from the city, thousands of stars are visible to the naked eye.",
              "The band of the Milky Way is the light of countless distant stars in our own galaxy.",
              "Astronomers measure the distance to nearby stars by watching them shift over a year.",
              "A small telescope is enough to see the rings of Saturn and the moons of Jupiter.",
              "Some of the light that reaches us tonight left its star before the first cities were built.",
              "Meteor showers happen when the Earth passes through dust left behind by a comet.",
              "The club meets on the hill every new moon, when the sky is darkest.",
              "Photographs taken over several hours show the stars tracing circles around the pole."],
    "software": ["The team writes a test for every bug before fixing it, so the bug cannot return unnoticed.",
                 "Small functions with clear names are easier to read than long ones with comments.",
                 "A build that takes ten minutes is run less often than one that takes ten seconds.",
                 "Logs should say what happened and why, not only that something went wrong.",
                 "The service writes its output to a temporary file and renames it when it is complete.",
                 "Reviewers look first at the tests, because they show what the change is meant to do.",
                 "Measuring the program before optimising it often shows that the slow part is elsewhere.",
                 "Every release is tagged, and the notes list what changed for the people who use it."],
}
JUNK = ["Home | About | Contact | Login", "Click here to subscribe!!!", "Copyright 2024. All rights reserved.",
        "Menu\nSearch\nCart (0)\nSign in", "Loading...", "404 page not found"]
DOMAINS = ["example.org", "news.example.com", "blog.example.net", "docs.example.co.uk", "forum.example.org"]

def prose(topic, n_paragraphs):
    sents = TOPICS[topic]
    paras = []
    for _ in range(n_paragraphs):
        paras.append(" ".join(rng.sample(sents, rng.randint(3, 6))))
    return "\n\n".join(paras)

docs = []
for i in range(160):
    topic = rng.choice(sorted(TOPICS))
    text = prose(topic, rng.randint(1, 5))
    docs.append({"text": text, "topic": topic})
for i in range(30):
    docs.append({"text": "\n".join(rng.sample(JUNK, rng.randint(1, 4))), "topic": "boilerplate"})
for i in range(20):
    topic = rng.choice(sorted(TOPICS))
    items = "\n".join("- " + s for s in rng.sample(TOPICS[topic], 5))
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
