"""Makes symbol_lines_reference.tsv, what datatrove's SymbolLinesFormatter (replace_char "") does to the corpora of
../shared/data/corpus, with Python's own re: SymbolLinesFormatterTest compares Sluice's symbol_lines_formatter
with it, document by document.

datatrove's pattern backtracks in time exponential in the symbols that start a line before its first other
character: 18 dashes and a letter take Python half a minute, 20 four minutes, and hundreds of the e-mails have
longer ones ("------------------------------ Original Message"). A document with such a line (more than RISK
symbols and spaces) is formatted by the same pattern with its inner repeat atomic, (?>...), which only cuts the
backtracking that ends inside a line; every document formatted by datatrove's pattern is formatted by that one
too and the results are checked equal.

Per file, one line: the file, documents, documents changed, symbol lines removed, documents formatted by the
atomic pattern, and the SHA-256 of every formatted text's UTF-16 code units in order, each followed by a 0 code
unit. Then one line per changed document: its index in the file (counting the documents the reader keeps: not
those with empty text), the lines removed from it, and the first 10 hex digits of the SHA-1 of its UTF-16 code
units.

    python3 make_symbol_lines_reference.py ../../../../../../../../shared/data/corpus > symbol_lines_reference.tsv
"""
import hashlib
import re
import sys

from reference_corpus import corpus_files

# datatrove's PUNCTUATION (src/datatrove/utils/text.py) and SymbolLinesFormatter's pattern
PUNCTUATION = "!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_.\"}►»" + "".join(
    map(chr, (x for a, b in ((0, 9), (11, 13), (13, 32), (127, 160)) for x in range(a, b))))
PUNCTS = "".join(map(re.escape, PUNCTUATION))
DATATROVE = re.compile(rf"(^(([{PUNCTS}]+[^\S\r\n]*)+\n?)+$((?<!\n)\n)?)", flags=re.MULTILINE)
ATOMIC = re.compile(rf"(^((?>([{PUNCTS}]+[^\S\r\n]*)+)\n?)+$((?<!\n)\n)?)", flags=re.MULTILINE)
RISK = 13


def risk(text):
    """The most symbols and spaces that start a line and are followed by another character than a newline."""
    worst = 0
    for line in text.split("\n"):
        if line and line[0] in PUNCTUATION:
            n = 0
            while n < len(line) and (line[n] in PUNCTUATION or line[n].isspace() and line[n] != "\r"):
                n += 1
            if n < len(line):
                worst = max(worst, n)
    return worst


def lines_removed(pattern, text):
    return sum(m.group().count("\n") + (not m.group().endswith("\n")) for m in pattern.finditer(text))


def main(folder):
    for path, texts in corpus_files(folder):
        docs = atomic = removed = 0
        changed = []
        digest = hashlib.sha256()
        for text in texts:
            docs += 1
            out = ATOMIC.sub("", text)
            n = lines_removed(ATOMIC, text)
            if risk(text) <= RISK:
                if (DATATROVE.sub("", text), lines_removed(DATATROVE, text)) != (out, n):
                    sys.exit(f"{path.name}, document {docs - 1}: the atomic pattern differs from datatrove's")
            else:
                atomic += 1
            removed += n
            utf16 = out.encode("utf-16-le", "surrogatepass")
            digest.update(utf16 + b"\0\0")
            if out != text:
                changed.append(f"{docs - 1}\t{n}\t{hashlib.sha1(utf16).hexdigest()[:10]}\n")
        print(f"{path.name}\t{docs}\t{len(changed)}\t{removed}\t{atomic}\t{digest.hexdigest()}")
        print("".join(changed), end="")


if __name__ == "__main__":
    main(sys.argv[1])
