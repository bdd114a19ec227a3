"""Train the learned type / format / audience classifier (``webcorpus.facets.learned``).

    python eval/facets/train.py                 # writes src/webcorpus/facets/facet_model.npz
    python eval/facets/train.py --cv 5          # grouped cross-validation on the tune split
    python eval/facets/train.py --check         # retrain and compare with the shipped file

Training data (deterministic: sorted files, no randomness, L-BFGS from zero):

- weak labels: the rules' confident decisions (see ``weak_labels``) over every page we can
  read without hand labels: the unpacked Debian doc sites (python3.11-doc, postgresql-doc-15,
  debian-handbook in 16 languages), the article benchmark pages;
- hand labels: the ``tune`` rows of labels.jsonl (documentation, articles and the hand-written
  company pages).

Nothing of the ``holdout`` split is read: its pages are left out of the unlabeled pool too.
The model sees the page text, not the URL (see ``webcorpus.facets.learned``), so weak labels
that came from URL rules teach it what such pages say. Each source's weak rows weigh at most
``WEAK_BUDGET`` in total, so the 3,300 handbook pages do not drown the rest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from evaluate import BENCH, PACKAGES, docs_root, load_html, macro_f1  # noqa: E402

from webcorpus.extract import extract  # noqa: E402
from webcorpus.extract.document import ExtractedDocument  # noqa: E402
from webcorpus.facets import learned, rules  # noqa: E402
from webcorpus.facets.learned import GROUPS, HEADS, FacetModel  # noqa: E402
from webcorpus.facets.score import MAX_TEXT, score_page  # noqa: E402

OUT = ROOT / "src/webcorpus/facets" / learned.MODEL_FILE
URL_OF = {
    "python3.11-doc": ("usr/share/doc/python3.11/html/", "https://docs.python.org/3.11/"),
    "postgresql-doc-15": (
        "usr/share/doc/postgresql-doc-15/html/",
        "https://www.postgresql.org/docs/15/",
    ),
    "debian-handbook": (
        "usr/share/doc/debian-handbook/html/",
        "https://debian-handbook.info/browse/",
    ),
}
# Hyper-parameters (picked by --cv on the tune split).
C = 1.0
HAND_WEIGHT = 4.0
WEAK_BUDGET = 300.0
MIN_DF = 3
BALANCE = 0.0
MIN_SITES = 2
MAX_FEATURES = {"b": 6000, "h": 2500, "t": 2000, "d": 1500}
WEAK_TYPE_MIN = 2.5
WEAK_TYPE_MARGIN = 1.0


@dataclass
class Page:
    id: str
    source: str
    url: str
    site: str
    group: str
    hand: dict[str, str] | None = None
    doc: ExtractedDocument | None = None
    feats: dict[str, list[str]] = field(default_factory=dict)
    rule: dict[str, Any] = field(default_factory=dict)
    weak: dict[str, str] = field(default_factory=dict)


def doc_url(source: str, ref: str) -> str:
    prefix, base = URL_OF[source]
    rest = ref[len(prefix) :]
    if source == "debian-handbook":
        lang, _, name = rest.partition("/")
        return f"{base}{lang}/stable/{name}"
    return base + rest


def site_of(source: str, ref: str, url: str) -> str:
    if source == "debian-handbook":
        return "handbook:" + ref.split("/")[5]  # one site per language
    if source in URL_OF:
        return source
    return urlsplit(url).hostname or url


def collect(root: Path) -> list[Page]:
    rows = [json.loads(x) for x in (HERE / "labels.jsonl").read_text().splitlines() if x]
    holdout = {r["id"] for r in rows if r["split"] == "holdout"}
    tune = {r["id"]: r for r in rows if r["split"] == "tune"}
    pages: list[Page] = []

    def add(source: str, ref: str, url: str) -> None:
        pid = f"{source}:{ref}"
        if pid in holdout:
            return
        r = tune.get(pid)
        group = ref.rsplit("/", 1)[-1] if source == "debian-handbook" else pid
        hand = {h: r[h] for h in HEADS} if r else None
        pages.append(Page(pid, source, url, site_of(source, ref, url), group, hand))

    for pkg in PACKAGES:
        for f in sorted((root / pkg).rglob("*.html")):
            ref = str(f.relative_to(root / pkg))
            add(pkg, ref, doc_url(pkg, ref))
    truth = json.loads((BENCH / "ground-truth.json").read_text())
    for key in sorted(truth):
        add("bench", key, truth[key]["url"])
    for r in sorted(tune.values(), key=lambda r: r["id"]):
        if r["source"] == "pages":
            add("pages", r["ref"], r["url"])
    return pages


def extract_all(pages: list[Page], root: Path, cache: Path | None) -> None:
    docs: dict[str, ExtractedDocument] = {}
    if cache and cache.exists():
        docs = pickle.loads(cache.read_bytes())
    t0 = time.time()
    for p in pages:
        if p.id not in docs:
            row = {"source": p.source, "ref": p.id.split(":", 1)[1]}
            docs[p.id] = extract(load_html(row, root), p.url)
        p.doc = docs[p.id]
    if cache:
        cache.write_bytes(pickle.dumps(docs))
    print(f"extracted {len(pages)} pages in {time.time() - t0:.0f}s", file=sys.stderr)


def analyse(p: Page) -> None:
    """Features and rules-only decisions of one page."""
    doc = p.doc
    assert doc is not None
    sig = rules.compute_signals(doc, doc.text[:MAX_TEXT], doc.markdown[:MAX_TEXT])
    has_date = doc.published is not None
    p.feats = learned.page_features(doc, sig, has_date)
    why: list[str] = []
    scores = rules.type_scores(doc, p.url, sig, has_date, why)
    type_ = rules.decide_type(scores, why)
    fmt, fmt_strong = rules.classify_format(doc, p.url, type_, sig, [])
    aud, aud_strong = rules.classify_audience(doc, p.url, type_, sig, [])
    words = max(sig.words, 1)
    p.rule = {
        "scores": dict(scores),
        "type": type_,
        "format": (fmt, fmt_strong),
        "audience": (aud, aud_strong),
        "dev_rate": (sig.dev_hits + sig.api_sigs * 2 + sig.code_lines) / words,
        "tech_rate": sig.tech_hits / words,
        "words": sig.words,
    }
    p.weak = weak_labels(p)


def weak_labels(p: Page) -> dict[str, str]:
    """The rules' confident decisions: a clear type winner, a specific format or audience
    signal, and a few high-precision vocabulary-rate cases."""
    r = p.rule
    out: dict[str, str] = {}
    ranked = [*sorted(r["scores"].values(), reverse=True), 0.0, 0.0]
    type_ = r["type"]
    pair = {"docs", "api_reference"}
    top2 = sorted(r["scores"], key=lambda k: -r["scores"][k])[:2]
    clear = ranked[0] - ranked[1] >= WEAK_TYPE_MARGIN or set(top2) <= pair
    if type_ != "other" and ranked[0] >= WEAK_TYPE_MIN and clear:
        out["type"] = type_
    fmt, fmt_strong = r["format"]
    if fmt_strong:
        out["format"] = fmt
    elif fmt == "article" and out.get("type") in ("news", "blog", "legal", "about", "case_study"):
        out["format"] = "article"
    aud, aud_strong = r["audience"]
    if aud_strong:
        out["audience"] = aud
    elif r["words"] >= 150 and out.get("type") in ("docs", "api_reference", "changelog"):
        if r["dev_rate"] >= 0.05:
            out["audience"] = "developers"
        elif r["tech_rate"] >= 0.03 and r["dev_rate"] < 0.02:
            out["audience"] = "technical"
    return out


def build_vocab(pages: list[Page]) -> dict[str, dict[str, int]]:
    df: dict[str, Counter[str]] = {g: Counter() for g in GROUPS}
    sites: dict[str, dict[str, set[str]]] = {g: defaultdict(set) for g in GROUPS}
    for p in pages:
        for g, toks in p.feats.items():
            for t in set(toks):
                df[g][t] += 1
                if len(sites[g][t]) < MIN_SITES:
                    sites[g][t].add(p.site)
    vocab: dict[str, dict[str, int]] = {g: {} for g in GROUPS}
    col = 0
    for g in GROUPS:
        if g == "y":
            keep = sorted(set(rules_types()))
        else:
            ok = [
                t
                for t, n in df[g].items()
                if n >= (1 if g == "f" else MIN_DF) and len(sites[g][t]) >= MIN_SITES
            ]
            ok.sort(key=lambda t: (-df[g][t], t))
            keep = sorted(ok[: MAX_FEATURES.get(g, len(ok))])
        for t in keep:
            vocab[g][t] = col
            col += 1
    return vocab


def rules_types() -> list[str]:
    from webcorpus.facets.vocabulary import TYPES

    return list(TYPES)


def matrix(model: FacetModel, feats: list[dict[str, list[str]]], n_cols: int) -> sparse.csr_matrix:
    data: list[float] = []
    ind: list[int] = []
    ptr = [0]
    for f in feats:
        for cols, val in model.columns(f):
            ind.extend(cols)
            data.extend([val] * len(cols))
        ptr.append(len(ind))
    return sparse.csr_matrix((data, ind, ptr), shape=(len(feats), n_cols))


def fit(pages: list[Page], exclude: frozenset[str] = frozenset()) -> FacetModel:
    """Train on weak labels of every page plus the hand labels of pages not in ``exclude``."""
    vocab = build_vocab(pages)
    n_cols = sum(len(v) for v in vocab.values())
    enc = FacetModel(vocab, {}, {}, {})  # only its feature encoding is used here
    weights: dict[str, np.ndarray] = {}
    bias: dict[str, np.ndarray] = {}
    classes: dict[str, list[str]] = {}
    per_source = Counter(p.source for p in pages)
    weak_w = {s: min(1.0, WEAK_BUDGET / n) for s, n in per_source.items()}
    for head in HEADS:
        feats: list[dict[str, list[str]]] = []
        ys: list[str] = []
        ws: list[float] = []
        for p in pages:
            base = dict(p.feats)
            if head == "type":
                base.pop("y", None)
            else:
                base["y"] = [p.rule["type"]]
            if p.hand is not None and p.id not in exclude:
                feats.append(base)
                ys.append(p.hand[head])
                ws.append(HAND_WEIGHT)
            elif head in p.weak:
                feats.append(base)
                ys.append(p.weak[head])
                ws.append(weak_w[p.source])
        if BALANCE:
            # Soften the class imbalance (the weak labels are mostly docs / reference /
            # technical): weight ~ (mean class weight / class weight) ** BALANCE.
            mass: Counter[str] = Counter()
            for y, w in zip(ys, ws, strict=True):
                mass[y] += w
            mean = sum(mass.values()) / len(mass)
            ws = [w * (mean / mass[y]) ** BALANCE for y, w in zip(ys, ws, strict=True)]
        x = matrix(enc, feats, n_cols)
        clf = LogisticRegression(C=C, max_iter=1000, tol=1e-4)
        clf.fit(x, ys, sample_weight=np.array(ws))
        assert len(clf.classes_) > 2, "binary heads would need a two-column weight matrix"
        classes[head] = [str(c) for c in clf.classes_]
        weights[head] = np.ascontiguousarray(clf.coef_.T, dtype=np.float32)
        bias[head] = clf.intercept_.astype(np.float32)
        print(
            f"{head}: {len(ys)} rows, classes {dict(Counter(ys).most_common())}",
            file=sys.stderr,
        )
    return FacetModel(vocab, weights, bias, classes)


def prepare(args: argparse.Namespace) -> list[Page]:
    root = docs_root(args.docs_root)
    pages = collect(root)
    extract_all(pages, root, Path(args.cache) if args.cache else None)
    learned.set_model(None)
    for p in pages:
        analyse(p)
    n_weak = Counter(h for p in pages for h in p.weak)
    print(
        f"{len(pages)} pages ({sum(p.hand is not None for p in pages)} hand-labeled); "
        f"weak labels {dict(n_weak)}",
        file=sys.stderr,
    )
    return pages


def cross_validate(pages: list[Page], k: int) -> None:
    labeled = [p for p in pages if p.hand is not None]

    def fold(p: Page) -> int:
        return int(hashlib.sha1(p.group.encode()).hexdigest(), 16) % k

    preds: dict[str, dict[str, str]] = {}
    rule_preds: dict[str, dict[str, str]] = {}
    for i in range(k):
        test = [p for p in labeled if fold(p) == i]
        model = fit(pages, exclude=frozenset(p.id for p in test))
        for m, out in ((model, preds), (None, rule_preds)):
            learned.set_model(m)
            for p in test:
                assert p.doc is not None
                f = score_page(p.doc, p.url)
                out[p.id] = {"type": f.type, "format": f.format, "audience": f.audience}
    learned.reset_model()
    print(f"{k}-fold CV on {len(labeled)} tune pages (out-of-fold predictions):")
    for head in HEADS:
        gold = [p.hand[head] for p in labeled if p.hand]
        r = [rule_preds[p.id][head] for p in labeled]
        m = [preds[p.id][head] for p in labeled]
        print(
            f"  {head:9s} macro-F1 rules {macro_f1(gold, r):.3f} -> "
            f"rules+model {macro_f1(gold, m):.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs-root")
    ap.add_argument("--cache", help="pickle the extracted pages here (speeds up reruns)")
    ap.add_argument("--cv", type=int, default=0, help="k-fold cross-validation, no output file")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="compare with the file at --out")
    args = ap.parse_args()
    pages = prepare(args)
    if args.cv:
        cross_validate(pages, args.cv)
        return
    model = fit(pages)
    if args.check:
        shipped = FacetModel.load(args.out)
        same = all(
            shipped.classes[h] == model.classes[h]
            and np.array_equal(shipped.weights[h], model.weights[h].astype(np.float16))
            for h in HEADS
        )
        print("reproducible: identical weights" if same else "DIFFERENT from the shipped model")
        sys.exit(0 if same else 1)
    model.save(args.out)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
