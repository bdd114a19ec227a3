"""Evaluate webcorpus.facets.score_page against the hand-labeled pages in labels.jsonl.

    python eval/facets/evaluate.py [--split tune|holdout|all] [--docs-root DIR] [--errors]
                                   [--rules-only]

The learned type / format / audience model (``webcorpus.facets.learned``) is trained on the
``tune`` split (``eval/facets/train.py``), so its tune figures are in-sample: the honest tune
figure is ``train.py --cv 5``. ``--rules-only`` scores without the model.

Pages come from three places: ``pages/`` (hand-written company pages, in the repo), the
extraction benchmark (``/work/shared/bench/extraction-articles`` or ``$WEBCORPUS_BENCH_DIR``)
and unpacked Debian doc packages (``--docs-root``, else ``$WEBCORPUS_TEST_CACHE`` or
``~/.cache/webcorpus-test``, each holding ``<package>/usr/share/doc/...``; as a last resort the
.deb files in /tmp/debs are unpacked into /tmp/facets-docs).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from webcorpus.extract.document import ExtractedDocument  # noqa: E402
from webcorpus.facets import learned, score_page  # noqa: E402

try:
    from webcorpus.extract import extract as _extract

    EXTRACTOR = "webcorpus.extract.extract"
except ImportError:
    from fallback_extract import extract as _extract

    EXTRACTOR = "eval/facets/fallback_extract.py (trafilatura)"

BENCH = Path(os.environ.get("WEBCORPUS_BENCH_DIR", "/work/shared/bench/extraction-articles"))
PACKAGES = ("debian-handbook", "python3.11-doc", "postgresql-doc-15")


def docs_root(arg: str | None) -> Path:
    candidates = [Path(arg)] if arg else []
    if env := os.environ.get("WEBCORPUS_TEST_CACHE"):
        candidates.append(Path(env))
    candidates += [Path.home() / ".cache/webcorpus-test", Path("/tmp/facets-docs")]
    for c in candidates:
        if all((c / p).is_dir() for p in PACKAGES):
            return c
    root = Path("/tmp/facets-docs")
    for deb in Path("/tmp/debs").glob("*.deb"):
        pkg = deb.name.split("_")[0]
        if pkg in PACKAGES and not (root / pkg).is_dir():
            (root / pkg).mkdir(parents=True, exist_ok=True)
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root / pkg)], check=True)
    return root


def load_html(row: dict[str, Any], root: Path) -> bytes:
    if row["source"] == "pages":
        return (HERE / "pages" / row["ref"]).read_bytes()
    if row["source"] == "bench":
        return gzip.open(BENCH / "html" / f"{row['ref']}.html.gz").read()
    return (root / row["source"] / row["ref"]).read_bytes()


def macro_f1(gold: list[str], pred: list[str]) -> float:
    labels = set(gold)
    f1s = []
    for lab in labels:
        tp = sum(g == p == lab for g, p in zip(gold, pred, strict=True))
        fp = sum(p == lab and g != lab for g, p in zip(gold, pred, strict=True))
        fn = sum(g == lab and p != lab for g, p in zip(gold, pred, strict=True))
        f1s.append(0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
    return sum(f1s) / len(f1s) if f1s else 0.0


def binary_f1(gold: list[bool], pred: list[bool]) -> float:
    tp = sum(g and p for g, p in zip(gold, pred, strict=True))
    fp = sum(p and not g for g, p in zip(gold, pred, strict=True))
    fn = sum(g and not p for g, p in zip(gold, pred, strict=True))
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def spearman(a: list[float], b: list[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(a, b).statistic) if len(a) > 2 else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="holdout", choices=["tune", "holdout", "all"])
    ap.add_argument("--docs-root")
    ap.add_argument("--errors", action="store_true", help="list the misclassified pages")
    ap.add_argument("--rules-only", action="store_true", help="without the learned model")
    args = ap.parse_args()
    if args.rules_only:
        learned.set_model(None)
    root = docs_root(args.docs_root)
    rows = [json.loads(line) for line in (HERE / "labels.jsonl").read_text().splitlines() if line]
    # debian-handbook sections are labeled in several languages, some in tune, some in holdout.
    tune_sections = {
        r["ref"].rsplit("/", 1)[-1]
        for r in rows
        if r["split"] == "tune" and r["source"] == "debian-handbook"
    }
    if args.split != "all":
        rows = [r for r in rows if r["split"] == args.split]

    score_page(ExtractedDocument(title=None, markdown="", text="warm up " * 40), "https://x.test/")
    preds: list[dict[str, Any]] = []
    cpu_ms: list[float] = []
    for row in rows:
        doc: ExtractedDocument = _extract(load_html(row, root), row["url"])
        t0 = time.process_time()
        f = score_page(doc, row["url"])
        cpu_ms.append((time.process_time() - t0) * 1000)
        preds.append({**f.as_dict(), "explain": f.explain})

    model = "rules only" if learned.get_model() is None else "rules + learned model"
    print(f"split={args.split} pages={len(rows)} extractor={EXTRACTOR} ({model})")
    if args.split != "holdout" and learned.get_model() is not None:
        print("note: the learned model is trained on the tune split (in-sample; see train.py --cv)")
    print(f"sources: {dict(Counter(r['source'] for r in rows))}")
    for facet in ("type", "format", "audience", "locale"):
        gold = [r[facet] for r in rows]
        pred = [p[facet] for p in preds]
        acc = sum(g == p for g, p in zip(gold, pred, strict=True)) / len(rows)
        print(f"{facet:9s} accuracy {acc:.3f}  macro-F1 {macro_f1(gold, pred):.3f}")
        if args.errors:
            for r, p in zip(rows, preds, strict=True):
                if r[facet] != p[facet]:
                    print(f"    {r['id'][:70]:70s} gold={r[facet]} pred={p[facet]}")
    if args.split == "holdout":
        # A model trained on tune can recognise a section it saw labeled in another language.
        fresh = [
            (r, p)
            for r, p in zip(rows, preds, strict=True)
            if not (
                r["source"] == "debian-handbook" and r["ref"].rsplit("/", 1)[-1] in tune_sections
            )
        ]
        figures = ", ".join(
            f"{facet} {macro_f1([r[facet] for r, _ in fresh], [p[facet] for _, p in fresh]):.3f}"
            for facet in ("type", "format", "audience")
        )
        print(f"macro-F1 on the {len(fresh)} pages with no translation in tune: {figures}")
    lang_acc = sum(
        r["locale"].split("-")[0] == p["locale"].split("-")[0]
        for r, p in zip(rows, preds, strict=True)
    ) / len(rows)
    print(f"locale language-only accuracy {lang_acc:.3f}")
    hb = [(r, p) for r, p in zip(rows, preds, strict=True) if r["source"] == "debian-handbook"]
    if hb:
        ok = sum(r["locale"] == p["locale"] for r, p in hb)
        print(
            f"locale on debian-handbook: {ok}/{len(hb)} "
            f"({len({r['locale'] for r, _ in hb})} languages)"
        )
    gold_c = [bool(r["has_code"]) for r in rows]
    pred_c = [bool(p["has_code"]) for p in preds]
    acc_c = sum(g == p for g, p in zip(gold_c, pred_c, strict=True)) / len(rows)
    print(f"has_code  accuracy {acc_c:.3f}  F1 {binary_f1(gold_c, pred_c):.3f}")
    if args.errors:
        for r, p in zip(rows, preds, strict=True):
            if bool(r["has_code"]) != bool(p["has_code"]):
                print(f"    {r['id'][:70]:70s} gold={r['has_code']} pred={p['has_code']}")

    dated = [(r, p) for r, p in zip(rows, preds, strict=True) if r.get("published")]
    if dated:
        exact = sum(r["published"] == p["published"] for r, p in dated) / len(dated)
        errs = [
            abs((date.fromisoformat(r["published"]) - date.fromisoformat(p["published"])).days)
            for r, p in dated
            if p["published"]
        ]
        missing = sum(1 for _, p in dated if not p["published"])
        mae = statistics.mean(errs) if errs else float("nan")
        print(
            f"published exact-date {exact:.3f} on {len(dated)} dated pages; "
            f"MAE {mae:.1f} days over {len(errs)} with a prediction; {missing} missing"
        )
        if args.errors:
            for r, p in dated:
                if r["published"] != p["published"]:
                    print(f"    {r['id'][:70]:70s} gold={r['published']} pred={p['published']}")
    ranked = [(r, p) for r, p in zip(rows, preds, strict=True) if "technicality_rank" in r]
    for facet in ("technicality", "promotional"):
        if ranked:
            rho = spearman([r[f"{facet}_rank"] for r, _ in ranked], [p[facet] for _, p in ranked])
            print(f"{facet} Spearman rho {rho:.3f} on {len(ranked)} ranked pages")
    cpu_sorted = sorted(cpu_ms)
    print(
        f"score_page CPU ms/page: mean {statistics.mean(cpu_ms):.2f}, "
        f"median {statistics.median(cpu_ms):.2f}, p95 {cpu_sorted[int(0.95 * len(cpu_ms))]:.2f}"
        " (excluding the one-time language model load)"
    )


if __name__ == "__main__":
    main()
