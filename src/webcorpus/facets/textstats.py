"""Tokenize once, count vocabularies by set lookups: regex alternations are too slow per page."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate

_WORD = re.compile(r"\w+(?:['’]\w+)?")
_IN_TOKEN = re.compile(r"[\w'’]")  # what a token can be made of
# Sorts after every token that starts with a given stem (tokens are \w characters and quotes).
_AFTER_ALL = "\U0010ffff"


@dataclass(frozen=True, slots=True)
class Vocab:
    words: frozenset[str]
    stems: tuple[str, ...]
    phrases: tuple[str, ...]


def vocab(*terms: str) -> Vocab:
    """Terms: ``word``, ``stem*`` (prefix) or a multi-word ``phrase`` (matched on word bounds)."""
    words, stems, phrases = set(), [], []
    for term in terms:
        t = term.lower()
        if " " in t or "-" in t:
            phrases.append(" " + " ".join(_WORD.findall(t)) + " ")
        elif t.endswith("*"):
            stems.append(t[:-1])
        else:
            words.add(t)
    return Vocab(frozenset(words), tuple(stems), tuple(phrases))


class Bag:
    """Lowercased tokens of a text with counts, for fast vocabulary counting."""

    __slots__ = ("_cumulative", "_sorted", "counts", "joined", "n")

    def __init__(self, text: str, *, tokens: list[str] | None = None) -> None:
        """``tokens``: the tokens of ``text`` when the caller has them."""
        if tokens is None:
            tokens = _WORD.findall(text.lower())
        self.n = len(tokens)
        self.counts = Counter(tokens)
        self.joined = " " + " ".join(tokens) + " "
        self._sorted: list[str] | None = None  # distinct tokens, sorted (built on first stem)
        self._cumulative: list[int] = []  # _cumulative[i]: count of _sorted[:i]

    @classmethod
    def with_head(cls, text: str, head: int) -> tuple[Bag, Bag]:
        """``(Bag(text), Bag(text[:head]))``, the head tokenized once when that gives the same
        tokens: no token can straddle the cut (its last character is no token character) and
        lowercasing the parts apart equals lowercasing the whole (only a capital sigma's
        lowercase depends on what follows it)."""
        if len(text) <= head:
            bag = cls(text)
            return bag, bag
        left = text[:head].lower()
        if "Σ" in text or not left or _IN_TOKEN.match(left, len(left) - 1):
            return cls(text), cls(text[:head])
        head_tokens = _WORD.findall(left)
        tokens = head_tokens + _WORD.findall(text[head:].lower())
        return cls(text, tokens=tokens), cls(text[:head], tokens=head_tokens)

    def count(self, v: Vocab) -> int:
        c = self.counts
        total = sum(c[w] for w in v.words if w in c)
        if v.stems:
            total += self._stem_count(v.stems)
        for p in v.phrases:
            total += self.joined.count(p)
        return total

    def _stem_count(self, stems: tuple[str, ...]) -> int:
        """Occurrences of tokens starting with any of ``stems`` (each token once): the tokens
        with a prefix form one range of the sorted distinct tokens, found by bisection."""
        if self._sorted is None or len(self._sorted) != len(self.counts):
            self._sorted = sorted(self.counts)
            self._cumulative = [0, *accumulate(map(self.counts.__getitem__, self._sorted))]
        keys = self._sorted
        ranges = sorted(
            (bisect_left(keys, stem), bisect_left(keys, stem + _AFTER_ALL)) for stem in stems
        )
        total = 0
        end = 0  # merged ranges: a token under two stems (one a prefix of the other) counts once
        cumulative = self._cumulative
        for lo, hi in ranges:
            lo = max(lo, end)
            if hi > lo:
                total += cumulative[hi] - cumulative[lo]
                end = hi
        return total
