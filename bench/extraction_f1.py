"""Article-body F1 of extraction candidates on /work/shared/bench/extraction-articles.

Scoring as the set's README describes (ScrapingHub article-extraction-benchmark): `\\w+` tokens,
4-token shingles as multisets, per-page tp/fp/fn normalized by their sum, precision and recall
averaged over pages, F1 from the means; accuracy = share of pages whose token lists match.
Each candidate's markdown is scored as plain text (markup stripped).

Usage: python bench/extraction_f1.py [--data DIR] [--only NAME[,NAME]] [--limit N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from webcorpus.extract import extract
from webcorpus.extract.charset import decode_html
from webcorpus.extract.markdown import markdown_to_text

DATA = Path("/work/shared/bench/extraction-articles")
_TOKEN = re.compile(r"\w+")


def shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    toks = _TOKEN.findall(text)
    return Counter(tuple(toks[i : i + n]) for i in range(max(0, len(toks) - n + 1)))


def page_scores(true: str, pred: str) -> tuple[float, float, bool]:
    t, p = shingles(true), shingles(pred)
    tp = sum((t & p).values())
    fp = sum((p - t).values())
    fn = sum((t - p).values())
    exact = _TOKEN.findall(true) == _TOKEN.findall(pred)
    if fp == 0 and fn == 0:
        return 1.0, 1.0, exact
    total = tp + fp + fn
    tp_n, fp_n, fn_n = tp / total, fp / total, fn / total
    prec = tp_n / (tp_n + fp_n) if tp_n + fp_n else 0.0
    rec = tp_n / (tp_n + fn_n) if tp_n + fn_n else 0.0
    return prec, rec, exact


# ---- candidates: html bytes, url -> plain text ---------------------------------------------
def _traf(**kw: Any) -> Callable[[bytes, str], str]:
    def run(html: bytes, url: str) -> str:
        import trafilatura

        md = trafilatura.extract(
            decode_html(html),
            url=url,
            output_format="markdown",
            include_tables=True,
            include_links=True,
            include_formatting=True,
            with_metadata=False,
            **kw,
        )
        return markdown_to_text(md or "")

    return run


def readability_md(html: bytes, url: str) -> str:
    from markdownify import markdownify
    from readability import Document

    summary = Document(decode_html(html), url=url).summary(html_partial=True)
    return markdown_to_text(markdownify(summary, heading_style="ATX"))


def resiliparse_text(html: bytes, url: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    tree = HTMLTree.parse(decode_html(html))
    return str(extract_plain_text(tree, main_content=True, preserve_formatting=True))


def ours(html: bytes, url: str) -> str:
    return extract(html, url).text


CANDIDATES: dict[str, Callable[[bytes, str], str]] = {
    "trafilatura": _traf(),
    "trafilatura-precision": _traf(favor_precision=True),
    "trafilatura-recall": _traf(favor_recall=True),
    "readability-lxml+markdownify": readability_md,
    "resiliparse": resiliparse_text,
    "webcorpus.extract": ours,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--only", default="")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--dump", type=Path, help="write per-page F1 of each candidate as JSON")
    args = ap.parse_args()
    truth: dict[str, dict[str, str]] = json.loads((args.data / "ground-truth.json").read_text())
    keys = sorted(truth)[: args.limit or None]
    pages = [(k, gzip.decompress((args.data / "html" / f"{k}.html.gz").read_bytes())) for k in keys]
    names = [n for n in CANDIDATES if not args.only or n in args.only.split(",")]
    print(f"{len(pages)} pages\n")
    print(f"{'candidate':32} {'F1':>6} {'prec':>6} {'recall':>6} {'acc':>6} {'CPU ms/page':>12}")
    per_page: dict[str, dict[str, float]] = {}
    for name in names:
        fn = CANDIDATES[name]
        try:
            fn(pages[0][1], truth[pages[0][0]]["url"])  # warm-up: imports
        except Exception as exc:  # a candidate that does not install/run is reported, not fatal
            print(f"{name:32} unavailable: {exc}")
            continue
        ps, rs, exact, cpu = [], [], 0, 0.0
        per_page[name] = {}
        for key, html in pages:
            t0 = time.process_time()
            try:
                pred = fn(html, truth[key]["url"])
            except Exception:
                pred = ""
            cpu += time.process_time() - t0
            p, r, ex = page_scores(truth[key]["articleBody"], pred)
            ps.append(p)
            rs.append(r)
            exact += ex
            per_page[name][key] = 2 * p * r / (p + r) if p + r else 0.0
        prec, rec = sum(ps) / len(ps), sum(rs) / len(rs)
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        print(
            f"{name:32} {f1:6.3f} {prec:6.3f} {rec:6.3f} {exact / len(pages):6.3f} "
            f"{cpu / len(pages) * 1000:12.1f}"
        )
    if args.dump:
        args.dump.write_text(json.dumps(per_page, indent=1))


if __name__ == "__main__":
    main()
