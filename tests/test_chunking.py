from __future__ import annotations

import itertools
import random
import re
import time

import pytest
from tokenizers import Tokenizer

from tests.sites.docsites import POSTGRES_HTML, PYTHON_HTML, default_cache_dir, ensure_unpacked
from webcorpus.index.chunking import (
    Chunk,
    _vocab_words,
    chunk_markdown,
    count_tokens,
    embedding_text,
)
from webcorpus.index.embedder import model_dir


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


# ---------------------------------------------------------------- exact counting, real pages


def _reference_tokenizer() -> Tokenizer:
    """The model's tokenizer, untruncated: the ground truth the cheap counter must match."""
    tok = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    return tok


def _reference_counts(texts: list[str], special: bool = False) -> list[int]:
    encs = _reference_tokenizer().encode_batch_fast(texts, add_special_tokens=special)
    return [len(e.ids) for e in encs]


def test_count_tokens_matches_tokenizer_on_random_unicode() -> None:
    rnd = random.Random(7)
    alphabet = (
        [chr(c) for c in range(0x00, 0x250)]  # ASCII, controls, Latin-1, Latin Extended
        + list("\u0301\u0344\u093e\u200b\u200e\u2019\u201c\u2014\u2028\u3000\ufeff\ufffd\x85")
        + list("日本語テキスト한국어를Яблокоﬁ㍻ǅﷺ\U0001f600")
        + ["the", "The", "tokenizer", "x" * 120, "y" * 99, " ", "\n", "\t", "\x0b\x0c\x1c\x1f"]
    )
    texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40))) for _ in range(6000)]
    assert count_tokens(texts) == _reference_counts(texts)
    assert count_tokens(texts) == _reference_counts(texts)  # second time from the caches


def test_vocabulary_words_count_one_piece() -> None:
    words = sorted(_vocab_words())
    assert len(words) > 20_000
    assert _reference_counts(words) == [1] * len(words)


def test_budget_shrinks_for_long_heading_context() -> None:
    heading = " ".join(f"Раздел{i}" for i in range(20))  # ~160 word pieces of context
    md = f"# {heading}\n\n" + words(600)
    chunks = chunk_markdown(md, title="Заголовок документа")
    assert len(chunks) > 3
    inputs = [embedding_text(c, "Заголовок документа") for c in chunks]
    assert max(_reference_counts(inputs, special=True)) <= 256


def test_hard_split_of_text_with_more_pieces_than_characters() -> None:
    chunks = chunk_markdown("한." * 3000, max_tokens=64)  # each syllable is 3 jamo word pieces
    assert chunks and all(c.tokens + 2 <= 64 for c in chunks)
    assert [c.tokens for c in chunks] == _reference_counts([c.text for c in chunks])


_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


@pytest.fixture(scope="module")
def real_pages() -> list[tuple[str, str | None, str]]:
    """(path, title, markdown) of 150 Python and 150 PostgreSQL doc pages, a fixed sample."""
    from webcorpus.extract import extract

    root = ensure_unpacked(default_cache_dir())
    pages = []
    for html_dir, n in ((PYTHON_HTML, 150), (POSTGRES_HTML, 150)):
        top = root / html_dir
        files = sorted(p for p in top.rglob("*.html") if p.is_file())
        for path in random.Random(3).sample(files, n):
            url = "http://docs.example.com/" + str(path.relative_to(top))
            doc = extract(path.read_bytes(), url)
            pages.append((url, doc.title, doc.markdown))
    return pages


def test_real_pages_fit_the_window_with_exact_counts(
    real_pages: list[tuple[str, str | None, str]],
) -> None:
    n_chunks = 0
    for url, title, markdown in real_pages:
        chunks = chunk_markdown(markdown, title=title)
        assert chunks == chunk_markdown(markdown, title=title), url  # deterministic
        if not markdown.strip():
            continue
        assert chunks, url
        n_chunks += len(chunks)
        assert [c.index for c in chunks] == list(range(len(chunks)))
        # ``tokens`` is exactly the tokenizer's count, and the embedding input fits the window.
        assert [c.tokens for c in chunks] == _reference_counts([c.text for c in chunks]), url
        inputs = [embedding_text(c, title) for c in chunks]
        assert max(_reference_counts(inputs, special=True)) <= 256, url
        page_lines = markdown.split("\n")
        rows = {line.strip() for line in page_lines if line.lstrip().startswith("|")}
        # A row longer than a chunk (genindex pages are one giant row) has to be cut.
        cut_ok = any(n > 128 for n in count_tokens(sorted(rows)))
        for c in chunks:
            lines = c.text.split("\n")
            # Table rows are never cut, and fenced code comes with its fences.
            cut = [x for x in lines if x.lstrip().startswith("|") and x.strip() not in rows]
            assert cut_ok or not cut, (url, cut)
            assert sum(1 for line in lines if _FENCE_LINE.match(line)) % 2 == 0, (url, c.text)
    assert n_chunks > 3000


def test_real_code_blocks_that_fit_stay_whole(
    real_pages: list[tuple[str, str | None, str]],
) -> None:
    checked = 0
    for _url, title, markdown in real_pages:
        blocks = re.findall(r"^```[^\n]*\n.*?\n```$", markdown, flags=re.M | re.S)
        small = [b for b in blocks if count_tokens([b])[0] <= 100]
        if not small:
            continue
        chunks = chunk_markdown(markdown, title=title)
        for block in small:
            assert any(block in c.text for c in chunks), block
            checked += 1
    assert checked > 100
