from __future__ import annotations

import itertools
import re
import time

from webcorpus.index.chunking import Chunk, chunk_markdown, count_tokens, embedding_text


def words(n: int, word: str = "alpha") -> str:
    return " ".join(f"{word}{i}." if i % 12 == 11 else word for i in range(n))


def test_empty_and_blank() -> None:
    assert chunk_markdown("") == []
    assert chunk_markdown("  \n\n \n") == []


def test_heading_paths_and_small_sibling_merge() -> None:
    md = (
        "# Guide\n\nIntro paragraph about the guide.\n\n"
        "## Install\n\n" + words(150) + "\n\n"
        "### Linux\n\nUse apt to install.\n\n"
        "### macOS\n\nUse brew to install.\n\n"
        "## Usage\n\n" + words(150, "beta") + "\n"
    )
    chunks = chunk_markdown(md, title="Guide")
    headings = [c.heading for c in chunks]
    assert headings[0] in {"Guide", "Guide > Install"}
    # The two tiny subsections are merged, under their parent, with their headings kept inline.
    linux = next(c for c in chunks if "Use apt" in c.text)
    assert "Use brew" in linux.text
    assert "Guide > Install > Linux".startswith(linux.heading)
    assert "### macOS" in linux.text and "## Install" in linux.text
    usage = next(c for c in chunks if "beta" in c.text)
    assert usage.heading == "Guide > Usage"
    assert "alpha" not in usage.text  # no merging across different parents beyond the budget
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_budget_and_exact_token_counts() -> None:
    md = "# Big\n\n" + "\n\n".join(words(90 + i * 7) for i in range(12))
    chunks = chunk_markdown(md, max_tokens=128, overlap_tokens=16, title="T")
    assert len(chunks) > 5
    assert all(
        c.tokens == n for c, n in zip(chunks, count_tokens([c.text for c in chunks]), strict=True)
    )
    # Including title/heading context and [CLS]/[SEP], every input fits the window.
    assert all(n + 2 <= 128 for n in count_tokens([embedding_text(c, "T") for c in chunks]))


def test_overlap_repeats_tail_sentences() -> None:
    sentences = [f"Sentence number {i} talks about topic{i}." for i in range(80)]
    chunks = chunk_markdown(" ".join(sentences), max_tokens=64, overlap_tokens=16)
    assert len(chunks) > 3
    for prev, nxt in itertools.pairwise(chunks):
        first = re.match(r"Sentence number \d+ [^.]*\.", nxt.text)
        assert first is not None and first.group(0) in prev.text
    no_overlap = chunk_markdown(" ".join(sentences), max_tokens=64, overlap_tokens=0)
    assert sum(c.tokens for c in no_overlap) < sum(c.tokens for c in chunks)


def test_code_block_kept_whole_when_it_fits() -> None:
    code = "```python\n" + "\n".join(f"x{i} = compute({i})" for i in range(12)) + "\n```"
    md = "# A\n\n" + words(180) + "\n\n" + code + "\n\n" + words(60, "gamma")
    chunks = chunk_markdown(md, max_tokens=256)
    holder = [c for c in chunks if "x0 = compute(0)" in c.text]
    assert len(holder) == 1 and "x11 = compute(11)" in holder[0].text
    assert holder[0].text.count("```") == 2


def test_oversized_code_block_split_at_lines_with_fences() -> None:
    lines = [f"print('line {i}', value_{i})" for i in range(200)]
    md = "## Code\n\n```python\n" + "\n".join(lines) + "\n```\n"
    chunks = chunk_markdown(md, max_tokens=128, overlap_tokens=32)
    assert len(chunks) > 3
    for c in chunks:
        assert c.text.startswith("```python\n") and c.text.endswith("\n```")
        assert c.tokens + 2 <= 128
        body = c.text.splitlines()[1:-1]
        assert all(line in lines for line in body)  # no line cut in the middle
    joined = [line for c in chunks for line in c.text.splitlines()[1:-1]]
    assert joined == lines  # no overlap inside code


def test_oversized_table_split_by_rows_with_header() -> None:
    header = "| name | value | description |\n|---|---|---|"
    rows = [f"| item{i} | {i} | the item number {i} |" for i in range(120)]
    chunks = chunk_markdown("# T\n\n" + header + "\n" + "\n".join(rows), max_tokens=128)
    assert len(chunks) > 3
    seen: list[str] = []
    for c in chunks:
        assert c.text.startswith(header)
        seen.extend(line for line in c.text.splitlines()[2:])
    assert seen == rows


def test_giant_unbroken_text_is_hard_split() -> None:
    chunks = chunk_markdown("x" * 5000 + " " + "y" * 3000, max_tokens=64)
    assert chunks and all(c.tokens + 2 <= 64 for c in chunks)


def test_unclosed_fence_and_crlf() -> None:
    md = "# H\r\n\r\ntext before\r\n\r\n```\r\ncode # not a heading\r\n"
    chunks = chunk_markdown(md)
    assert [c.heading for c in chunks] == ["H"]
    assert "# not a heading" in chunks[0].text


def test_deterministic() -> None:
    md = "# A\n\n" + words(400) + "\n\n## B\n\n" + words(300, "beta")
    assert chunk_markdown(md, title="A") == chunk_markdown(md, title="A")


def test_embedding_text_skips_title_repeated_as_h1() -> None:
    chunk = Chunk(0, "Guide > Install", "body", 1)
    assert embedding_text(chunk, "Guide") == "Guide > Install\n\nbody"
    assert embedding_text(chunk, "Other") == "Other > Guide > Install\n\nbody"
    assert embedding_text(Chunk(0, "", "body", 1), None) == "body"


def test_speed_of_a_large_page() -> None:
    md = "\n\n".join(f"## Section {s}\n\n" + words(300) for s in range(30))  # ~60 kB
    chunk_markdown(md)
    start = time.perf_counter()
    chunks = chunk_markdown(md)
    assert time.perf_counter() - start < 2.0
    assert len(chunks) >= 30
