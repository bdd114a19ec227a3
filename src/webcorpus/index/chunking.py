"""Heading-aware markdown chunking sized for all-MiniLM-L6-v2 (256 word pieces).

Tokens are counted exactly as the model's own tokenizer counts them, but cheaply: BERT word-piece
counts add up over whitespace-separated pieces, so ``count_tokens`` sums cached per-piece counts
and counts only never-seen runs, by WordPiece in Python or with the Rust tokenizer (see the comment
above ``_PRE_TOKEN``). The
same additivity lets the packer sum the counts of blocks joined by whitespace instead of
re-tokenising what it assembled.

Chunk ``text`` never repeats the chunk's own heading path; embed ``embedding_text(chunk, title)``,
which prefixes title and heading path. The token budget reserves room for that prefix and for
[CLS]/[SEP], so the embedding input fits the model window.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, islice

from tokenizers import Tokenizer

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
# Any indentation: the extractor indents fences inside list items by the item's content offset.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？])\s+")
_HEADING_SEP = " > "
_FENCE_CHARS = ("`", "~")


@dataclass(frozen=True, slots=True)
class Chunk:
    index: int
    heading: str  # heading path, e.g. "Install > Linux"; "" before the first heading
    text: str
    tokens: int  # word pieces in ``text`` (no special tokens)


@lru_cache(maxsize=1)
def _counter() -> Tokenizer:
    from webcorpus.index.embedder import model_dir

    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


# Exact word-piece counting without re-running the tokenizer over the same text.
#
# BERT normalisation (clean text, CJK padding, lowercase, accent stripping) and pre-tokenisation
# (split on whitespace, isolate every punctuation character) never act across whitespace, and
# word-piece tokenises each pre-token on its own; so a text's count is the sum of the counts of its
# whitespace-separated pieces, and a piece's count is the sum over its ASCII punctuation characters
# (each one pre-token, one vocabulary entry) and the runs between them. Python's str.split() splits
# on the characters BERT treats as whitespace plus a few control characters
# (\x0b \x0c \x1c-\x1f \x85) that BERT's clean-text step deletes; we delete them too.
# Counts of pieces and runs are cached per process (bounded); only unseen runs are counted, the
# ASCII alphanumeric ones by ``_wordpiece_count`` (BERT's WordPiece on the lowercased run: for such
# a run normalisation is lowercasing and pre-tokenisation keeps it whole), the others by the Rust
# tokenizer in one batch per call (it costs ~15 µs a run). tests/test_chunking.py checks this
# against the tokenizer on real pages and on random Unicode strings.
_ASCII_PUNCT = r"!-/:-@\[-`{-~"  # every printable ASCII character that is not alphanumeric
_PRE_TOKEN = re.compile(rf"[^\s{_ASCII_PUNCT}]+|[{_ASCII_PUNCT}]")
_BERT_DELETES = re.compile(r"[\x0b\x0c\x1c-\x1f\x85]")
_DROP = str.maketrans("", "", "\x0b\x0c\x1c\x1d\x1e\x1f\x85")
_PUNCT_TO_SPACE = str.maketrans({chr(c): " " for c in range(33, 127) if not chr(c).isalnum()})
_PUNCT_BYTES = bytes(c for c in range(33, 127) if not chr(c).isalnum())
_PUNCT_TO_SPACE_BYTES = bytes.maketrans(_PUNCT_BYTES, b" " * len(_PUNCT_BYTES))
_CACHE_MAX = 100_000  # entries per cache: ~15 MB of pieces at most
_PIECES: dict[str, int] = {}  # whitespace-separated piece -> word pieces
_RUNS: dict[str, int] = {}  # pre-token run (or one ASCII punctuation character) -> word pieces
_MAX_WORD_CHARS = 100  # the model's WordPiece max_input_chars_per_word: longer words are [UNK]


def _split_pieces(text: str) -> list[str]:
    # == _BERT_DELETES.search(text), several times faster (memchr scans; \x85 is not ASCII)
    if (
        "\x0b" in text
        or "\x0c" in text
        or "\x1c" in text
        or "\x1d" in text
        or "\x1e" in text
        or "\x1f" in text
        or (not text.isascii() and "\x85" in text)
    ):
        text = text.translate(_DROP)
    return text.split()


def _shrink(cache: dict[str, int]) -> None:
    """Keep the older half of a full cache: the entries learned first are the common ones."""
    try:
        keep = dict(islice(cache.items(), _CACHE_MAX // 2))
    except RuntimeError:  # changed meanwhile by another thread: start over
        keep = {}
    cache.clear()
    cache.update(keep)


def _learn(pieces: set[str]) -> dict[str, int]:
    """Counts of ``pieces`` (tokenizing only runs never seen), also stored in the caches."""
    if len(_RUNS) > _CACHE_MAX:
        _RUNS.clear()
    if not _RUNS:
        _RUNS.update(_vocab_words())
    # A piece has no whitespace, so its pre-tokens are its ASCII punctuation characters (one word
    # piece each) and the runs between them: count = punctuation characters + counts of the runs.
    runs = _runs(pieces)
    unseen = set(chain.from_iterable(runs.values())).difference(_RUNS)
    if unseen:
        others = []
        for run in unseen:
            if run.isascii() and run.isalnum():
                _RUNS[run] = _wordpiece_count(run.lower())
            else:
                others.append(run)
        if others:
            others.sort()
            encs = _counter().encode_batch_fast(others, add_special_tokens=False)
            _RUNS.update(zip(others, [len(e.ids) for e in encs], strict=True))
    get = _RUNS.__getitem__
    out = {p: len(p) - sum(map(len, rs)) + sum(map(get, rs)) for p, rs in runs.items()}
    _PIECES.update(out)
    return out


def _runs(pieces: set[str]) -> dict[str, list[str]]:
    """The runs between the ASCII punctuation of each piece. The ASCII pieces (nearly all) are
    translated in one bytes.translate over them all, a table lookup per byte instead of
    str.translate's mapping lookup per character."""
    ascii_pieces = [p for p in pieces if p.isascii()]
    runs: dict[str, list[str]] = {}
    if ascii_pieces:
        joined = "\n".join(ascii_pieces).encode("ascii").translate(_PUNCT_TO_SPACE_BYTES)
        runs = dict(
            zip(ascii_pieces, map(str.split, joined.decode("ascii").split("\n")), strict=True)
        )
    if len(ascii_pieces) < len(pieces):
        runs.update((p, p.translate(_PUNCT_TO_SPACE).split()) for p in pieces if not p.isascii())
    return runs


@lru_cache(maxsize=1)
def _vocab() -> frozenset[str]:
    return frozenset(_counter().get_vocab())


def _wordpiece_count(word: str) -> int:
    """Word pieces of one pre-tokenized, normalised word: WordPiece's greedy longest match first
    (continuations prefixed "##"), one [UNK] when a part has no match or the word is too long."""
    n = len(word)
    if n > _MAX_WORD_CHARS:
        return 1
    vocab = _vocab()
    start = count = 0
    while start < n:
        end = n
        while end > start:
            if (word[start:end] if start == 0 else "##" + word[start:end]) in vocab:
                break
            end -= 1
        else:
            return 1  # no piece matches: the whole word is one [UNK]
        count += 1
        start = end
    return count


@lru_cache(maxsize=1)
def _vocab_words() -> dict[str, int]:
    """Whole-word vocabulary entries (one word piece each) and the ASCII punctuation."""
    words = {
        w: 1
        for w in _counter().get_vocab()
        if w.isascii() and w.isalnum() and w == w.lower() and len(w) <= 100
    }
    words.update((chr(c), 1) for c in range(33, 127) if not chr(c).isalnum())
    return words


def count_tokens(texts: Sequence[str]) -> list[int]:
    """Word pieces per text, without [CLS]/[SEP] (exactly what the tokenizer would count)."""
    if len(_PIECES) > _CACHE_MAX:
        _shrink(_PIECES)
    out: list[int] = []
    pending: list[tuple[int, list[str]]] = []
    get = _PIECES.__getitem__
    for text in texts:
        pieces = _split_pieces(text)
        try:
            out.append(sum(map(get, pieces)))
        except KeyError:
            pending.append((len(out), pieces))
            out.append(0)
    if pending:
        missing = set(chain.from_iterable(pieces for _, pieces in pending)).difference(_PIECES)
        _learn(missing)
        for i, pieces in pending:
            try:
                out[i] = sum(map(get, pieces))
            except KeyError:  # the cache was emptied meanwhile (another thread)
                known = _learn(set(pieces))
                out[i] = sum([known[p] for p in pieces])
    return out


def _count_one(text: str) -> int:
    """``count_tokens([text])[0]``, without the list round trip (hot in ``_tail_overlap``)."""
    pieces = _split_pieces(text)
    try:
        return sum(map(_PIECES.__getitem__, pieces))
    except KeyError:
        return count_tokens((text,))[0]


def _count_pieces(pieces: list[str]) -> list[int]:
    """``count_tokens`` for strings without whitespace (each one piece)."""
    get = _PIECES.get
    counts = [get(p, -1) for p in pieces]
    if -1 in counts:
        known = _learn({p for p, n in zip(pieces, counts, strict=True) if n < 0})
        counts = [known[p] if n < 0 else n for p, n in zip(pieces, counts, strict=True)]
    return counts


def embedding_text(chunk: Chunk, title: str | None = None) -> str:
    """The string to embed: title and heading path as context, then the chunk text."""
    context = _context(title, chunk.heading)
    return f"{context}\n\n{chunk.text}" if context else chunk.text


def _context(title: str | None, heading: str) -> str:
    parts = [title.strip()] if title and title.strip() else []
    path = heading.split(_HEADING_SEP) if heading else []
    if parts and path and path[0].strip().casefold() == parts[0].casefold():
        path = path[1:]  # the page's H1 usually repeats its title
    return _HEADING_SEP.join(parts + path)


# ---------------------------------------------------------------- parsing


@dataclass(slots=True)
class _Block:
    kind: str  # "text" | "code" | "table" | "heading"
    lines: list[str]
    tokens: int = 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(slots=True)
class _Section:
    path: tuple[str, ...]
    heading_line: str | None
    blocks: list[_Block]

    @property
    def tokens(self) -> int:
        return sum(b.tokens for b in self.blocks)


def _parse(markdown: str) -> list[_Section]:
    sections = [_Section((), None, [])]
    stack: list[tuple[int, str]] = []
    para: list[str] = []
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def flush() -> None:
        if para:
            sections[-1].blocks.append(_Block("text", para.copy()))
            para.clear()

    i = 0
    n_lines = len(lines)
    while i < n_lines:
        line = lines[i]
        stripped = line.strip()
        first = stripped[:1]
        # Cheap first-character tests before the regexes (a fence or heading starts with it).
        fence = _FENCE.match(line) if first in _FENCE_CHARS else None
        if fence:
            flush()
            marker = fence.group(1)
            body = [line]
            i += 1
            while i < n_lines:
                body.append(lines[i])
                close = _FENCE.match(lines[i])
                i += 1
                if (
                    close
                    and close.group(1)[0] == marker[0]
                    and len(close.group(1)) >= len(marker)
                    and not close.group(2).strip()
                ):
                    break
            sections[-1].blocks.append(_Block("code", body))
            continue
        if first == "|":
            flush()
            rows = []
            while i < n_lines and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            sections[-1].blocks.append(_Block("table", rows))
            continue
        heading = _HEADING.match(line) if first == "#" else None
        if heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text or "…"))
            sections.append(_Section(tuple(t for _, t in stack), stripped, []))
        elif stripped:
            para.append(line.rstrip())
        else:
            flush()
        i += 1
    flush()
    return [s for s in sections if s.blocks]


# ---------------------------------------------------------------- splitting


# Pieces are joined by whitespace, so the count of a joined text is the sum of its pieces' counts:
# these helpers return (text, word pieces) pairs and never re-tokenise what they assembled.


def _pack(pieces: list[str], counts: list[int], budget: int, sep: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    cur: list[str] = []
    used = 0
    for piece, n in zip(pieces, counts, strict=True):
        if cur and used + n > budget:
            out.append((sep.join(cur), used))
            cur, used = [], 0
        cur.append(piece)
        used += n
    if cur:
        out.append((sep.join(cur), used))
    return out


def _split_hard(text: str, budget: int) -> list[tuple[str, int]]:
    """Last resort: pack words; a word longer than the budget is cut into character runs."""
    words: list[str] = []
    for word in text.split():
        words.extend(word[j : j + budget] for j in range(0, len(word), budget))
    counts = _count_pieces(words)
    if max(counts, default=0) > budget:  # more word pieces than characters (e.g. Hangul jamo)
        words, counts = _halve_oversized(words, counts, budget)
    return _pack(words, counts, budget, " ")


def _halve_oversized(
    words: list[str], counts: list[int], budget: int
) -> tuple[list[str], list[int]]:
    out_words: list[str] = []
    out_counts: list[int] = []
    for word, n in zip(words, counts, strict=True):
        if n <= budget or len(word) < 2:
            out_words.append(word)
            out_counts.append(n)
            continue
        half = len(word) // 2
        parts = [word[:half], word[half:]]
        sub_words, sub_counts = _halve_oversized(parts, _count_pieces(parts), budget)
        out_words.extend(sub_words)
        out_counts.extend(sub_counts)
    return out_words, out_counts


def _split_units(units: list[str], budget: int, sep: str) -> list[tuple[str, int]]:
    counts = count_tokens(units)
    fitted: list[str] = []
    fitted_counts: list[int] = []
    for unit, n in zip(units, counts, strict=True):
        if n <= budget:
            fitted.append(unit)
            fitted_counts.append(n)
            continue
        parts = [p for p in _SENTENCE_END.split(unit) if p.strip()]
        sub = _split_units(parts, budget, " ") if len(parts) > 1 else _split_hard(unit, budget)
        fitted.extend(t for t, _ in sub)
        fitted_counts.extend(k for _, k in sub)
    return _pack(fitted, fitted_counts, budget, sep)


def _split_block(block: _Block, budget: int) -> list[tuple[str, int]]:
    """Split one oversized block; code and tables only at line boundaries (with fences/header)."""
    if block.kind == "code":
        opening = block.lines[0]
        closing = block.lines[-1] if len(block.lines) > 1 else opening.strip()[:3]
        body = block.lines[1:-1] if len(block.lines) > 1 else []
        frame = sum(count_tokens([opening, closing]))
        pieces = _split_units(body or [""], max(8, budget - frame), "\n")
        return [(f"{opening}\n{p}\n{closing}", n + frame) for p, n in pieces]
    if block.kind == "table":
        has_sep = len(block.lines) > 2 and _TABLE_SEP.match(block.lines[1]) is not None
        header = block.lines[:2] if has_sep else []
        rows = block.lines[2:] if has_sep else block.lines
        head_text = "\n".join(header)
        head_tokens = count_tokens([head_text])[0] if header else 0
        if head_tokens > budget // 2:
            header, head_text, head_tokens = [], "", 0
            rows = block.lines
        pieces = _split_units(rows, budget - head_tokens, "\n")
        return [(f"{head_text}\n{p}", n + head_tokens) if header else (p, n) for p, n in pieces]
    lines = block.lines
    return _split_units(lines if len(lines) > 1 else [block.text], budget, "\n")


# ---------------------------------------------------------------- assembling


def _common_prefix(paths: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    first = paths[0]
    n = len(first)
    for p in paths[1:]:
        n = min(n, len(p))
        for j in range(n):
            if p[j] != first[j]:
                n = j
                break
    return first[:n]


def _tail_overlap(text: str, overlap_tokens: int) -> tuple[str, int]:
    """Trailing whole sentences of ``text`` fitting ``overlap_tokens`` ('' when none fits)."""
    if overlap_tokens <= 0 or "```" in text or "~~~" in text or text.lstrip().startswith("|"):
        return "", 0
    last_para = text.rsplit("\n\n", 1)[-1]
    if last_para.lstrip("> \t").startswith("|"):  # a table (maybe quoted): rows aren't sentences
        return "", 0
    sentences = [s for s in _SENTENCE_END.split(last_para) if s.strip()]
    kept: list[str] = []
    used = n = 0
    for sentence in reversed(sentences):  # counted lazily: usually only the last few are needed
        n = _count_one(sentence)
        if used + n > overlap_tokens:
            break
        kept.append(sentence)
        used += n
    if len(kept) == len(sentences) and kept:  # whole paragraph: keep all but its first sentence
        used -= n
        kept.pop()
    return " ".join(reversed(kept)), used


def chunk_markdown(
    markdown: str,
    *,
    title: str | None = None,
    max_tokens: int = 256,
    overlap_tokens: int = 32,
) -> list[Chunk]:
    sections = _parse(markdown)
    if not sections:
        return []
    blocks = [b for s in sections for b in s.blocks]
    heading_lines = [s.heading_line or "" for s in sections]
    counts = count_tokens([b.text for b in blocks] + heading_lines)
    for b, n in zip(blocks, counts, strict=False):
        b.tokens = n
    heading_tokens = counts[len(blocks) :]
    for s, n in zip(sections, heading_tokens, strict=True):
        if s.heading_line is not None:
            s.blocks.insert(0, _Block("heading", [s.heading_line], n))

    budget_cache: dict[tuple[str, ...], int] = {}

    def budget_for(path: tuple[str, ...]) -> int:
        if path not in budget_cache:
            ctx = _context(title, _HEADING_SEP.join(path))
            ctx_tokens = count_tokens([ctx])[0] + 1 if ctx else 0
            # A long title + heading path (Cyrillic headings run to 130+ word pieces) shrinks the
            # budget so that embedding_text() still fits the window; floored for absurd contexts.
            budget_cache[path] = max(max_tokens // 8, max_tokens - 2 - ctx_tokens)
        return budget_cache[path]

    # Merge small sections into groups whose members share a parent heading.
    small = max(1, max_tokens // 4)
    groups: list[list[_Section]] = []
    for s in sections:
        if groups:
            group = groups[-1]
            paths = [g.path for g in group] + [s.path]
            prefix = _common_prefix(paths)
            related = len(prefix) >= len(group[0].path) - 1
            total = sum(g.tokens for g in group) + s.tokens - _own_heading_tokens(group[0])
            is_small = s.tokens < small or sum(g.tokens for g in group) < small
            if related and is_small and total <= budget_for(prefix):
                group.append(s)
                continue
        groups.append([s])

    chunks: list[tuple[str, str, int]] = []
    for group in groups:
        path = _common_prefix([g.path for g in group])
        heading = _HEADING_SEP.join(path)
        budget = budget_for(path)
        units: list[_Block] = []
        for s in group:
            # The chunk's own heading lives in ``heading``; deeper headings stay in the text.
            units.extend(b for b in s.blocks if not (b.kind == "heading" and s.path == path))
        pieces: list[str] = []
        piece_counts: list[int] = []
        for b in units:
            if b.tokens <= budget:
                pieces.append(b.text)
                piece_counts.append(b.tokens)
            else:
                # Prose pieces leave room for the overlap carried over from the previous piece.
                room = budget if b.kind in {"code", "table"} else budget - overlap_tokens
                for text, n in _split_block(b, max(budget // 2, room)):
                    pieces.append(text)
                    piece_counts.append(n)
        texts = _pack_with_overlap(pieces, piece_counts, budget, overlap_tokens)
        chunks.extend((heading, t, n) for t, n in texts)

    return [Chunk(index=i, heading=h, text=t, tokens=n) for i, (h, t, n) in enumerate(chunks)]


def _own_heading_tokens(section: _Section) -> int:
    first = section.blocks[0] if section.blocks else None
    return first.tokens if first is not None and first.kind == "heading" else 0


def _pack_with_overlap(
    pieces: list[str], counts: list[int], budget: int, overlap_tokens: int
) -> list[tuple[str, int]]:
    """Greedy packing; pieces are joined by blank lines, so token counts simply add up."""
    out: list[tuple[str, int]] = []
    cur: list[str] = []
    used = 0
    for piece, n in zip(pieces, counts, strict=True):
        if cur and used + n > budget:
            text = "\n\n".join(cur)
            out.append((text, used))
            tail, tail_tokens = _tail_overlap(text, min(overlap_tokens, budget - n))
            cur, used = ([tail], tail_tokens) if tail else ([], 0)
        cur.append(piece)
        used += n
    if cur:
        out.append(("\n\n".join(cur), used))
    return [(t.strip(), n) for t, n in out if t.strip()]
