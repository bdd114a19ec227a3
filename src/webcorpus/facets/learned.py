"""Small learned classifier for the ``type``, ``format`` and ``audience`` facets.

A multinomial logistic regression per facet over sparse binary features of the page text:
title words and bigrams, meta description, heading words, main-text words, JSON-LD / Open Graph
types and binned text statistics (length, code share, prices, calls to action, form fields,
question headings, numbered steps, tables, API signatures, link density, developer / IT /
business vocabulary rates, reader address and first-person voice). Each feature group is
L2-normalised on its own so that a long text does not drown the title. ``format`` and
``audience`` also see the page's decided ``type``. The URL is left to the rules: a model that
learned URL tokens from a few hundred labeled pages would judge an unfamiliar site by its URL
layout.

It is trained by ``eval/facets/train.py`` on weak labels (the rules' confident decisions over
unlabeled documentation and article pages) plus the hand labels of the ``tune`` split, never on
``holdout``. The weights ship as package data (``facet_model.npz``); prediction is a few
dictionary look-ups and one small matrix product for the three facets (about 0.3 ms a page).

The rules in :mod:`webcorpus.facets.rules` stay in charge: see
:func:`webcorpus.facets.rules.decide_type` and :mod:`webcorpus.facets.score` for how the two
are combined.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from pathlib import Path

import numpy as np

from webcorpus.extract.document import ExtractedDocument
from webcorpus.facets.rules import Signals

MODEL_FILE = "facet_model.npz"
HEADS = ("type", "format", "audience")
# Feature groups: title, description, headings, body, statistics; ``y`` (the decided type)
# only feeds format and audience.
GROUPS = ("t", "d", "h", "b", "f", "y")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*", re.U)
MAX_HEADINGS = 30
MAX_BODY_TOKENS = 1500
# Reader address and first-person voice (consumer copy vs news vs personal blog).
_YOU = ("you", "your", "you'll", "you're", "yours")
_FIRST = ("i", "my", "me", "i'm", "i've")


@dataclass(frozen=True, slots=True)
class Prediction:
    label: str
    prob: float

    def reason(self) -> str:
        return f"model: {self.label} p={self.prob:.2f}"


def _bin(x: float, edges: tuple[float, ...]) -> int:
    for i, e in enumerate(edges):
        if x < e:
            return i
    return len(edges)


def _words(s: str | None) -> list[str]:
    return _TOKEN.findall(s.lower()) if s else []


def page_features(doc: ExtractedDocument, sig: Signals, has_date: bool) -> dict[str, list[str]]:
    """Feature tokens of a page by group (everything but ``y``)."""
    title = _words(doc.title)
    t = title + [f"{a}_{b}" for a, b in pairwise(title)]
    heads: list[str] = []
    for h in sig.headings[:MAX_HEADINGS]:
        heads.extend(_words(h))
    bag = sig.bag
    body = list(bag.counts)[:MAX_BODY_TOKENS] if bag is not None else []
    words = max(sig.words, 1)
    if bag is not None and bag.n:
        c = bag.counts
        you = sum(c.get(w, 0) for w in _YOU) / bag.n
        first = sum(c.get(w, 0) for w in _FIRST) / bag.n
    else:
        you = first = 0.0
    f = [
        f"words{_bin(sig.words, (50, 150, 400, 1000, 2500))}",
        f"code{_bin(sig.code_lines / max(sig.lines, 1), (0.001, 0.05, 0.15, 0.3))}",
        f"prices{_bin(sig.prices, (1, 3, 8))}",
        f"period{_bin(sig.per_period, (1, 2))}",
        f"cta{_bin(sig.ctas, (1, 3))}",
        f"form{_bin(sig.form_fields, (1, 3))}",
        f"qhead{_bin(sig.question_heads, (1, 3))}",
        f"ordered{_bin(sig.ordered_items, (1, 4, 10))}",
        f"table{_bin(sig.table_rows, (1, 8))}",
        f"apisig{_bin(sig.api_sigs, (1, 4, 10))}",
        f"links{_bin(sig.link_words / words, (0.1, 0.3, 0.5))}",
        f"heads{_bin(len(sig.headings), (1, 4, 11))}",
        f"dev{_bin(sig.dev_hits / words, (0.005, 0.02, 0.05))}",
        f"tech{_bin(sig.tech_hits / words, (0.005, 0.015, 0.04))}",
        f"biz{_bin(sig.biz_hits / words, (0.003, 0.008, 0.02))}",
        f"dated{int(has_date)}",
        f"you{_bin(you, (0.003, 0.01, 0.025))}",
        f"first{_bin(first, (0.003, 0.01, 0.025))}",
        *(f"ld_{j}" for j in sorted(sig.jsonld)),
    ]
    if doc.og_type:
        f.append(f"og_{doc.og_type.lower()}")
    d = _words(doc.description)[:60]
    return {"t": t, "d": d, "h": heads, "b": body, "f": f}


class FacetModel:
    """Weights of the three heads over one shared feature vocabulary."""

    def __init__(
        self,
        vocab: dict[str, dict[str, int]],
        weights: dict[str, np.ndarray],
        bias: dict[str, np.ndarray],
        classes: dict[str, list[str]],
    ) -> None:
        self.vocab = vocab
        self.weights = weights
        self.bias = bias
        self.classes = classes
        # All heads side by side, so one gather serves the three predictions of a page.
        self._slices: dict[str, slice] = {}
        start = 0
        for h in HEADS:
            if h in weights:
                self._slices[h] = slice(start, start + weights[h].shape[1])
                start += weights[h].shape[1]
        self._w = (
            np.hstack([weights[h] for h in self._slices]).astype(np.float32)
            if self._slices
            else np.zeros((0, 0), np.float32)
        )
        self._y = vocab.get("y", {})

    @classmethod
    def load(cls, path: str | Path | None = None) -> FacetModel:
        if path is None:
            with resources.as_file(resources.files("webcorpus.facets") / MODEL_FILE) as p:
                return cls.load(p)
        with np.load(path, allow_pickle=False) as z:
            vocab: dict[str, dict[str, int]] = {g: {} for g in GROUPS}
            for g, tok, col in zip(z["vocab_group"], z["vocab_token"], z["vocab_col"], strict=True):
                vocab[str(g)][str(tok)] = int(col)
            weights = {h: z[f"W_{h}"].astype(np.float32) for h in HEADS}
            bias = {h: z[f"b_{h}"].astype(np.float32) for h in HEADS}
            classes = {h: [str(c) for c in z[f"classes_{h}"]] for h in HEADS}
        return cls(vocab, weights, bias, classes)

    def save(self, path: str | Path) -> None:
        rows = sorted(
            ((g, tok, col) for g, d in self.vocab.items() for tok, col in d.items()),
            key=lambda r: r[2],
        )
        arrays: dict[str, np.ndarray] = {
            "vocab_group": np.array([r[0] for r in rows]),
            "vocab_token": np.array([r[1] for r in rows]),
            "vocab_col": np.array([r[2] for r in rows], dtype=np.int32),
        }
        for h in HEADS:
            arrays[f"W_{h}"] = self.weights[h].astype(np.float16)
            arrays[f"b_{h}"] = self.bias[h].astype(np.float32)
            arrays[f"classes_{h}"] = np.array(self.classes[h])
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    def columns(self, feats: dict[str, list[str]]) -> Iterator[tuple[list[int], float]]:
        """(columns, value) per non-empty group: binary features, L2-normalised per group."""
        for g, toks in feats.items():
            vg = self.vocab.get(g)
            if not vg:
                continue
            cols = list({vg[t] for t in toks if t in vg})
            if cols:
                yield cols, 1.0 / math.sqrt(len(cols))

    def logits(self, feats: dict[str, list[str]]) -> np.ndarray:
        """Raw scores of every class of every head, from all groups but ``y``."""
        idx: list[int] = []
        val: list[float] = []
        for cols, v in self.columns({g: t for g, t in feats.items() if g != "y"}):
            idx.extend(cols)
            val.extend([v] * len(cols))
        if not idx:
            return np.zeros(self._w.shape[1], np.float32)
        return np.asarray(val, np.float32) @ self._w[idx]

    def predict(self, head: str, logits: np.ndarray, type_: str | None = None) -> Prediction:
        """The head's best label and its probability; ``type_`` feeds format and audience."""
        z = logits[self._slices[head]] + self.bias[head]
        if type_ is not None and head != "type" and type_ in self._y:
            z = z + self._w[self._y[type_], self._slices[head]]
        z = z - z.max()
        p = np.exp(z.astype(np.float64))
        p /= p.sum()
        i = int(p.argmax())
        return Prediction(self.classes[head][i], float(p[i]))


_MODEL: FacetModel | None = None
_LOADED = False


def get_model() -> FacetModel | None:
    """The packaged model (loaded once per process); None when the file is missing."""
    global _MODEL, _LOADED
    if not _LOADED:
        _LOADED = True
        try:
            _MODEL = FacetModel.load()
        except FileNotFoundError:
            _MODEL = None
    return _MODEL


def set_model(model: FacetModel | None) -> None:
    """Use ``model`` instead of the packaged one (training and evaluation; None: rules only)."""
    global _MODEL, _LOADED
    _MODEL, _LOADED = model, True


def reset_model() -> None:
    """Go back to the packaged model."""
    global _MODEL, _LOADED
    _MODEL, _LOADED = None, False
