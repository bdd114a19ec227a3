"""Near-duplicate signatures: 64-bit SimHash over word shingles of the main text.

The lead stores ``simhash64(doc.text)`` per page and passes the highest
``similarity(mine, other)`` over the corpus to ``score_page(max_similarity=...)``.
SimHash keeps one integer per page (cheap to store and compare, indexable by bit bands);
MinHash would estimate Jaccard more exactly but needs 128+ integers per page.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

_WORD = re.compile(r"\w+", re.UNICODE)
_MASK64 = (1 << 64) - 1
SHINGLE = 3


def _tokens(text: str) -> list[str]:
    toks = _WORD.findall(text.lower())
    # Scripts written without spaces (CJK) come out as long runs; split them into characters.
    out: list[str] = []
    for t in toks:
        if len(t) > 12 and any(ord(c) > 0x2E80 for c in t):
            out.extend(t)
        else:
            out.append(t)
    return out


def _h64(s: str) -> int:
    return int.from_bytes(hashlib.blake2b(s.encode("utf-8"), digest_size=8).digest(), "big")


def simhash64(text: str) -> int:
    """SimHash of the ``SHINGLE``-word shingles of ``text`` (0 for empty text).

    Returned as a signed 64-bit integer so it fits a BIGINT / SQLite INTEGER column.
    """
    toks = _tokens(text)
    if not toks:
        return 0
    if len(toks) < SHINGLE:
        shingles = [" ".join(toks)]
    else:
        shingles = [" ".join(toks[i : i + SHINGLE]) for i in range(len(toks) - SHINGLE + 1)]
    weights: dict[str, int] = {}
    for s in shingles:
        weights[s] = weights.get(s, 0) + 1
    hashes = np.fromiter((_h64(s) for s in weights), dtype=">u8", count=len(weights))
    w = np.fromiter(weights.values(), dtype=np.int64, count=len(weights))
    bits = np.unpackbits(hashes.view(np.uint8)).reshape(-1, 64)  # MSB first
    acc = (w[:, None] * (2 * bits.astype(np.int64) - 1)).sum(axis=0)
    value = int.from_bytes(np.packbits(acc > 0).tobytes(), "big")
    return value - (1 << 64) if value >= (1 << 63) else value


def similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64 of two SimHash signatures (1.0 = identical).

    Unrelated texts land around 0.5; near-duplicates above ~0.9.
    """
    return 1.0 - ((a ^ b) & _MASK64).bit_count() / 64.0
