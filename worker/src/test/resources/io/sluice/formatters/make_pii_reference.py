"""Makes pii_reference.tsv, what datatrove's PIIFormatter does to the corpora of ../shared/data/corpus, with
Python's own re and ipaddress: PiiFormatterTest compares Sluice's pii_formatter with it.

Each corpus file is one rank: its documents in file order, the replacements taken in turn through the file.
Per file: documents, documents changed, e-mail and IP replacements, and the SHA-256 of every formatted text's
UTF-16 code units in order, each followed by a 0 code unit.

    python3 make_pii_reference.py ../../../../../../../../shared/data/corpus > pii_reference.tsv
"""
import hashlib
import ipaddress
import re
import sys

from reference_corpus import corpus_files

EMAIL = re.compile(
    r"\b[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+"
    r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]"
    r"|[01]?[0-9][0-9]?|[a-z0-9-]*[a-z0-9]:)])")
IP = re.compile(r"(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)")
EMAILS = ("email@example.com", "firstname.lastname@example.org")
IPS = ("22.214.171.124", "126.96.36.199", "188.8.131.52", "184.108.40.206", "220.127.116.11", "18.104.22.168")
# is_global differs between CPython versions only inside 192.0.0.0/24: the reference must hold none of those
DISPUTED = ipaddress.ip_network("192.0.0.0/24")


def is_global(s):
    try:
        ip = ipaddress.ip_address(s)
    except ValueError:
        return False
    if ip in DISPUTED:
        sys.exit(f"{s}: is_global depends on the Python version; the reference cannot use it")
    return ip.is_global


def main(folder):
    for path, texts in corpus_files(folder):
        turn = {"email": 0, "ip": 0}
        counts = {"email": 0, "ip": 0}
        docs = changed = 0
        digest = hashlib.sha256()

        def replacer(kind, replacements, accept):
            def replace(m):
                if not accept(m.group(0)):
                    return m.group(0)
                r = replacements[turn[kind]]
                turn[kind] = (turn[kind] + 1) % len(replacements)
                counts[kind] += 1
                return r
            return replace

        for text in texts:
            docs += 1
            out = EMAIL.sub(replacer("email", EMAILS, lambda s: True), text)
            out = IP.sub(replacer("ip", IPS, is_global), out)
            changed += out != text
            digest.update(out.encode("utf-16-le", "surrogatepass") + b"\0\0")
        print(f"{path.name}\t{docs}\t{changed}\t{counts['email']}\t{counts['ip']}\t{digest.hexdigest()}")


if __name__ == "__main__":
    main(sys.argv[1])
