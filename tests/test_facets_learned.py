"""The learned part of type / format / audience: the shipped model and how it joins the rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from webcorpus.extract.document import ExtractedDocument
from webcorpus.facets import AUDIENCES, FORMATS, TYPES, learned, score_page
from webcorpus.facets.learned import HEADS, FacetModel

NEUTRAL_URL = "https://example.org/p/4711"
PROSE = (
    "The meeting took place on a rainy afternoon. Several people spoke about the plans for the "
    "coming year, the budget and the new building, and the discussion went on until the evening. "
)


@pytest.fixture(autouse=True)
def _packaged_model() -> Iterator[None]:
    learned.reset_model()
    yield
    learned.reset_model()


def doc(text: str, title: str | None = None, **kw: object) -> ExtractedDocument:
    return ExtractedDocument(
        title=title,
        markdown=text,
        text=text,
        words=len(text.split()),
        **kw,  # type: ignore[arg-type]
    )


def constant_model(type_: str, fmt: str, audience: str) -> FacetModel:
    """A model with no features whose biases always vote for the given labels (p ~ 0.99)."""
    classes = {
        "type": [type_, "other"],
        "format": [fmt, "other"],
        "audience": [audience, "general"],
    }
    # Three classes per head: sklearn-shaped multinomial heads never have two.
    for h in HEADS:
        classes[h].append("zzz")
    return FacetModel(
        vocab={"f": {"words0": 0}},
        weights={h: np.zeros((1, 3), np.float32) for h in HEADS},
        bias={h: np.array([6.0, 0.0, 0.0], np.float32) for h in HEADS},
        classes=classes,
    )


def test_shipped_model_loads_and_speaks_the_vocabularies() -> None:
    model = learned.get_model()
    assert model is not None, "src/webcorpus/facets/facet_model.npz is missing"
    n_features = sum(len(v) for v in model.vocab.values())
    assert n_features > 1000
    assert {"t", "h", "b", "f", "y"} <= {g for g, v in model.vocab.items() if v}
    for head, vocabulary in zip(HEADS, (TYPES, FORMATS, AUDIENCES), strict=True):
        assert set(model.classes[head]) <= set(vocabulary)
        assert len(model.classes[head]) >= 5
        assert model.weights[head].shape == (n_features, len(model.classes[head]))
        assert np.isfinite(model.weights[head]).all()


REFERENCE_PAGE = [
    "## os.path — Common pathname manipulations",
    "This module implements some useful functions on pathnames. To read or write files see "
    "open(), and for accessing the filesystem see the os module. The path parameters can be "
    "passed as strings, or bytes, or any object implementing the os.PathLike protocol.",
    "os.path.join(path, *paths)",
    "Join one or more path segments intelligently. The return value is the concatenation of "
    "path and all members of *paths, with exactly one directory separator following each "
    "non-empty part except the last. If a segment is an absolute path, all previous segments "
    "are thrown away and joining continues from the absolute path segment.",
    "Changed in version 3.6: Accepts a path-like object for path and paths.",
    "os.path.split(path)",
    "Split the pathname path into a pair, (head, tail) where tail is the last pathname "
    "component and head is everything leading up to that. The tail part will never contain a "
    "slash; if path ends in a slash, tail will be empty.",
    "```python\n>>> os.path.split('/usr/lib/python3')\n('/usr/lib', 'python3')\n```",
    "os.path.normpath(path)",
    "Normalize a pathname by collapsing redundant separators and up-level references so that "
    "A//B, A/B/, A/./B and A/foo/../B all become A/B. This string manipulation may change the "
    "meaning of a path that contains symbolic links.",
    "os.path.exists(path)",
    "Return True if path refers to an existing path or an open file descriptor. Returns False "
    "for broken symbolic links. On some platforms, this function may return False if "
    "permission is not granted to execute os.stat() on the requested file.",
]


def test_shipped_model_reads_documentation() -> None:
    """A reference page on a URL that says nothing: the rules alone leave it ``other``, the
    shipped model's vote (named in explain with its probability) makes it documentation for
    developers."""
    md = "\n\n".join(REFERENCE_PAGE)
    text = md.replace("## ", "").replace("```python\n", "").replace("```", "")
    page = ExtractedDocument(title=None, markdown=md, text=text, words=len(text.split()))
    learned.set_model(None)
    by_rules = score_page(page, NEUTRAL_URL)
    assert by_rules.type == "other"
    assert not any("model" in r for rs in by_rules.explain.values() for r in rs)
    learned.reset_model()
    f = score_page(page, NEUTRAL_URL)
    assert f.type in ("docs", "api_reference"), f.explain["type"]
    assert any(r.startswith(f"{f.type} +") and "model p=" in r for r in f.explain["type"])
    assert f.audience == "developers", f.explain["audience"]
    assert any("model: developers p=" in r for r in f.explain["audience"])


def test_model_decides_when_rules_are_weak_and_stays_out_when_they_are_strong() -> None:
    learned.set_model(constant_model("blog", "tutorial", "consumers"))
    weak = score_page(doc(PROSE * 3), NEUTRAL_URL)
    assert weak.type == "blog"
    assert any(r.startswith("blog +") and "model p=" in r for r in weak.explain["type"])
    # Prose with no specific format / audience signal: the weak rule gives way.
    assert weak.format == "tutorial"
    assert any("overrides weak rule article" in r for r in weak.explain["format"])
    assert weak.audience == "consumers"

    strong = score_page(
        doc(PROSE * 3, title="Storage Engineer", jsonld_types=["JobPosting"]), NEUTRAL_URL
    )
    assert strong.type == "job"
    assert any("not used: rules decisive" in r for r in strong.explain["type"])
    assert strong.audience == "job_seekers"
    assert any("not used: strong rule" in r for r in strong.explain["audience"])

    pricing = score_page(
        doc("Starter $9 / month. Team $29 / month. Business $99 / month, billed annually."),
        "https://shop.example.com/pricing",
    )
    assert pricing.type == "pricing"
    assert pricing.format == "landing"


def test_unsure_model_leaves_other() -> None:
    m = constant_model("blog", "tutorial", "consumers")
    for h in HEADS:
        m.bias[h] = np.array([0.3, 0.0, 0.0], np.float32)  # p ~ 0.4: below every threshold
    learned.set_model(m)
    f = score_page(doc(PROSE * 3), NEUTRAL_URL)
    assert f.type == "other"
    assert any("not used" in r for r in f.explain["type"])
    assert f.format == "article"
    assert f.audience == "general"


def test_model_save_load_round_trip(tmp_path: Path) -> None:
    m = constant_model("news", "article", "press")
    path = tmp_path / "m.npz"
    m.save(path)
    back = FacetModel.load(path)
    assert back.classes == m.classes
    feats = {"f": ["words0"]}
    for h in HEADS:
        a, b = m.predict(h, m.logits(feats)), back.predict(h, back.logits(feats))
        assert a.label == b.label
        assert a.prob == pytest.approx(b.prob, abs=1e-3)


def test_missing_model_file_means_rules_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "MODEL_FILE", "no-such-model.npz")
    learned.reset_model()
    assert learned.get_model() is None
    f = score_page(doc(PROSE * 3), NEUTRAL_URL)
    assert f.type == "other"
    assert not any("model" in r for rs in f.explain.values() for r in rs)


def test_training_is_deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two fits on the same pages give the same weights (the real run, with the doc sites:
    ``python eval/facets/train.py --check``)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "eval" / "facets"))
    import train

    texts = {
        ("docs", "reference", "developers"): "The function returns the parsed value. " * 30,
        ("news", "article", "general"): "The minister said on Tuesday that the vote will go on. "
        * 30,
        ("pricing", "landing", "business"): "Starter $9 / month. Team $29 / month per user. " * 10,
    }
    pages = []
    for i in range(12):
        for (t, f, a), text in texts.items():
            p = train.Page(f"x:{t}{i}", "pages", f"https://s{i}.example/{t}", f"s{i}", f"g{i}")
            p.hand = {"type": t, "format": f, "audience": a}
            p.doc = doc(f"{text} Page number {i}.", title=f"{t} {i}")
            train.analyse(p)
            pages.append(p)
    a, b = train.fit(pages), train.fit(pages)
    for h in HEADS:
        assert a.classes[h] == b.classes[h]
        assert np.array_equal(a.weights[h], b.weights[h])
    a.save(tmp_path / "a.npz")
    back = FacetModel.load(tmp_path / "a.npz")
    z = back.logits(pages[0].feats)
    assert back.predict("type", z).label == "docs"
