"""Tokenize once, count vocabularies by set lookups: regex alternations are too slow per page."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_WORD = re.compile(r"\w+(?:['’]\w+)?")


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

    __slots__ = ("counts", "joined", "n")

    def __init__(self, text: str) -> None:
        tokens = _WORD.findall(text.lower())
        self.n = len(tokens)
        self.counts = Counter(tokens)
        self.joined = " " + " ".join(tokens) + " "

    def count(self, v: Vocab) -> int:
        c = self.counts
        total = sum(c[w] for w in v.words if w in c)
        if v.stems:
            total += sum(n for tok, n in c.items() if tok.startswith(v.stems))
        for p in v.phrases:
            total += self.joined.count(p)
        return total
