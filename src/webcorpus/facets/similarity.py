"""Near-duplicate signatures: 64-bit SimHash over word shingles of the main text.

The lead stores ``simhash64(doc.text)`` per page and passes the highest
``similarity(mine, other)`` over the corpus to ``score_page(max_similarity=...)``.
SimHash keeps one integer per page (cheap to store and compare, indexable by bit bands);
MinHash would estimate Jaccard more exactly but needs 128+ integers per page.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import numpy as np

_WORD = re.compile(r"\w+", re.UNICODE)
_MASK64 = (1 << 64) - 1
SHINGLE = 3  # simhash64 builds 3-word shingles inline


def _tokens(text: str) -> list[str]:
    toks = _WORD.findall(text.lower())
    if text.isascii():
        return toks
    # Scripts written without spaces (CJK) come out as long runs; split them into characters.
    out: list[str] = []
    for t in toks:
        if len(t) > 12 and not t.isascii() and any(ord(c) > 0x2E80 for c in t):
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
        weights = Counter([" ".join(toks)])
    else:  # "a b c" for every 3 consecutive tokens (map/join: no per-shingle bytecode)
        weights = Counter(map(" ".join, zip(toks, toks[1:], toks[2:], strict=False)))
    # (Counter is insertion-ordered like the dict it replaces)
    blake, encode = hashlib.blake2b, str.encode  # str.encode: UTF-8, strict
    digests = b"".join([blake(encode(s), digest_size=8).digest() for s in weights])
    bits = np.unpackbits(np.frombuffer(digests, dtype=np.uint8).reshape(-1, 8), axis=1)
    w = np.fromiter(weights.values(), dtype=np.int64, count=len(weights))
    # sum of w * (+1 for a set bit, -1 for a clear one), per bit (MSB first). Most shingles occur
    # once: the weighted sum is the plain column sum plus (w - 1) * bits of the repeated ones.
    ones = bits.sum(axis=0, dtype=np.int64)
    repeated = np.flatnonzero(w > 1)
    if repeated.size:
        ones += (w[repeated] - 1) @ bits[repeated].astype(np.int64)
    acc = 2 * ones - int(w.sum())
    value = int.from_bytes(np.packbits(acc > 0).tobytes(), "big")
    return value - (1 << 64) if value >= (1 << 63) else value


def similarity(a: int, b: int) -> float:
    """1 - Hamming distance / 64 of two SimHash signatures (1.0 = identical).

    Unrelated texts land around 0.5; near-duplicates above ~0.9.
    """
    return 1.0 - ((a ^ b) & _MASK64).bit_count() / 64.0
