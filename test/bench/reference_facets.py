"""The reference's facets (Python, /work/ref at dfee359) on the files named on stdin, one JSON
line per file: its extracted document, its facets, the CPU ms of its score_page and of its
simhash64 (computed beside score_page in the reference's pipeline, inside scorePage in ours).

Run by test/bench/facets-speed.ts and test/eval/facets/evaluate.ts --reference-docs with the
reference's virtualenv:
    /work/ref/.venv/bin/python test/bench/reference_facets.py BASE_URL ROOT < files
A line is a path under ROOT (its URL: BASE_URL + the path below ROOT), or `URL<TAB>PATH`;
`.gz` files are read gunzipped.
"""

import gzip
import json
import sys
import time
from pathlib import Path

from webcorpus.extract import extract
from webcorpus.facets import score_page, simhash64


def as_json(doc):
    return {
        "title": doc.title, "markdown": doc.markdown, "text": doc.text,
        "canonicalUrl": doc.canonical_url, "language": doc.language,
        "hreflang": [list(x) for x in doc.hreflang], "description": doc.description,
        "published": doc.published.isoformat() if doc.published else None,
        "noindex": doc.noindex, "nofollow": doc.nofollow, "assets": [],
        "links": [
            {"url": l.url, "anchorText": l.anchor_text, "position": l.position, "nofollow": l.nofollow}
            for l in doc.links
        ],
        "words": doc.words, "hasCode": doc.has_code, "jsonldTypes": list(doc.jsonld_types),
        "ogType": doc.og_type,
    }


def main() -> None:
    base, root = sys.argv[1], Path(sys.argv[2])
    warm = extract(b"<html><body><p>warm up text here</p></body></html>", "https://x.test/")
    score_page(warm, "https://x.test/")  # loads the model and the language identifier
    for line in sys.stdin:
        if not line.strip():
            continue
        if "\t" in line:
            url, name = line.rstrip("\n").split("\t", 1)
            path = Path(name)
        else:
            path = Path(line.strip())
            url = base + str(path.relative_to(root))
        raw = path.read_bytes()
        doc = extract(gzip.decompress(raw) if path.suffix == ".gz" else raw, url)
        t0 = time.process_time()
        facets = score_page(doc, url)
        t1 = time.process_time()
        simhash64(doc.text)
        t2 = time.process_time()
        print(json.dumps({"file": str(path), "url": url, "ms": (t1 - t0) * 1000,
                          "simhash_ms": (t2 - t1) * 1000, "doc": as_json(doc),
                          "facets": facets.as_dict()}))


if __name__ == "__main__":
    main()
