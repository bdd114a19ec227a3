"""Heading-aware markdown chunking sized for all-MiniLM-L6-v2 (256 word pieces).

Tokens are counted with the model's own tokenizer (Rust ``tokenizers``; one batched call per page).
BERT pre-tokenisation splits on whitespace, so the count of blocks joined by blank lines is the
sum of their counts, which lets us pack blocks without re-tokenising.

Chunk ``text`` never repeats the chunk's own heading path; embed ``embedding_text(chunk, title)``,
which prefixes title and heading path. The token budget reserves room for that prefix and for
[CLS]/[SEP], so the embedding input fits the model window.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tokenizers import Tokenizer

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？])\s+")
_HEADING_SEP = " > "


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


def count_tokens(texts: Sequence[str]) -> list[int]:
    """Word pieces per text, without [CLS]/[SEP]."""
    if not texts:
        return []
    encs = _counter().encode_batch_fast(list(texts), add_special_tokens=False)
    return [len(e.ids) for e in encs]


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
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            marker = fence.group(1)
            body = [line]
            i += 1
            while i < len(lines):
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
        if line.lstrip().startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                rows.append(lines[i])
                i += 1
            sections[-1].blocks.append(_Block("table", rows))
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text or "…"))
            sections.append(_Section(tuple(t for _, t in stack), line.strip(), []))
        elif line.strip():
            para.append(line.rstrip())
        else:
            flush()
        i += 1
    flush()
    return [s for s in sections if s.blocks]


# ---------------------------------------------------------------- splitting


def _pack(pieces: list[str], counts: list[int], budget: int, sep: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    used = 0
    for piece, n in zip(pieces, counts, strict=True):
        if cur and used + n > budget:
            out.append(sep.join(cur))
            cur, used = [], 0
        cur.append(piece)
        used += n
    if cur:
        out.append(sep.join(cur))
    return out


def _split_hard(text: str, budget: int) -> list[str]:
    """Last resort: pack words; a word longer than the budget is cut into character runs."""
    words: list[str] = []
    for word in text.split():
        words.extend(word[j : j + budget] for j in range(0, len(word), budget))
    return _pack(words, count_tokens(words), budget, " ")


def _split_units(units: list[str], budget: int, sep: str) -> list[str]:
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
        fitted.extend(sub)
        fitted_counts.extend(count_tokens(sub))
    return _pack(fitted, fitted_counts, budget, sep)


def _split_block(block: _Block, budget: int) -> list[str]:
    """Split one oversized block; code and tables only at line boundaries (with fences/header)."""
    if block.kind == "code":
        opening = block.lines[0]
        closing = block.lines[-1] if len(block.lines) > 1 else opening.strip()[:3]
        body = block.lines[1:-1] if len(block.lines) > 1 else []
        frame = sum(count_tokens([opening, closing]))
        pieces = _split_units(body or [""], max(8, budget - frame), "\n")
        return [f"{opening}\n{p}\n{closing}" for p in pieces]
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
        return [f"{head_text}\n{p}" if header else p for p in pieces]
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
    sentences = [s for s in _SENTENCE_END.split(last_para) if s.strip()]
    counts = count_tokens(sentences)
    kept: list[str] = []
    used = 0
    for sentence, n in zip(reversed(sentences), reversed(counts), strict=True):
        if used + n > overlap_tokens:
            break
        kept.append(sentence)
        used += n
    if len(kept) == len(sentences) and kept:  # whole paragraph: keep all but its first sentence
        used -= counts[0]
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
            budget_cache[path] = max(max_tokens // 2, max_tokens - 2 - ctx_tokens)
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
                split = _split_block(b, max(budget // 2, room))
                pieces.extend(split)
                piece_counts.extend(count_tokens(split))
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
