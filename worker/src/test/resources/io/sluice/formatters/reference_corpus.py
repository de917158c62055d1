"""The corpora the formatters' references are made from (../shared/data/corpus): each file's documents as Sluice's
reader keeps them, in file order."""
import json
import subprocess
from pathlib import Path


def corpus_files(folder):
    """(path, its texts) for every corpus file, in sorted order."""
    for path in sorted(Path(folder).glob("*.jsonl.zst")):
        yield path, texts(path)


def texts(path):
    lines = subprocess.run(["zstd", "-dc", str(path)], check=True, capture_output=True).stdout.decode("utf-8")
    for line in lines.split("\n"):  # not splitlines(): a text may hold U+2028
        if not line.strip():
            continue
        text = json.loads(line)["text"]
        if text:  # the reader skips documents with empty text
            yield text
