from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webcorpus.index.ftsquery import MAX_TERMS, fts5_query, tsquery_terms

DOCS = [
    "How to install Python on Linux with apt",
    "Configuring the NEAR operator AND other FTS5 syntax",
    "Café crème and naïve résumé",
    "Rust cargo build profiles",
    "日本語のテキスト検索",
]


@pytest.fixture(scope="module")
def db() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')"
    )
    conn.executemany("INSERT INTO t(body) VALUES (?)", [(d,) for d in DOCS])
    yield conn
    conn.close()


def search(db: sqlite3.Connection, text: str) -> list[str]:
    q = fts5_query(text)
    if q is None:
        return []
    rows = db.execute("SELECT body FROM t WHERE t MATCH ? ORDER BY bm25(t)", (q,)).fetchall()
    return [r[0] for r in rows]


def test_natural_question_finds_partial_match(db: sqlite3.Connection) -> None:
    # "ubuntu" appears nowhere, but OR + BM25 still ranks the install page first.
    assert search(db, "How do I install python on ubuntu?")[0] == DOCS[0]


def test_more_matching_terms_rank_higher(db: sqlite3.Connection) -> None:
    hits = search(db, "cargo python install linux")
    assert hits[0] == DOCS[0]
    assert DOCS[3] in hits


def test_operators_are_plain_words(db: sqlite3.Connection) -> None:
    assert fts5_query('NEAR(foo bar) AND "x" NOT y*') == '"foo" OR "bar" OR "x" OR "y"'
    assert search(db, "operator NEAR syntax")[0] == DOCS[1]


def test_stopwords_dropped_unless_nothing_else() -> None:
    assert fts5_query("how do I install python") == '"install" OR "python"'
    assert fts5_query("the who") == '"the" OR "who"'


def test_unicode_and_diacritics(db: sqlite3.Connection) -> None:
    assert search(db, "cafe resume") == [DOCS[2]]
    assert search(db, "日本語のテキスト検索") == [DOCS[4]]


@pytest.mark.parametrize("text", ["", "   ", "!!! ??? ***", "😀🎉", '"""', "(^:)", "\x00\x01"])
def test_nothing_searchable(text: str) -> None:
    assert fts5_query(text) is None
    assert tsquery_terms(text) == []


def test_dedup_case_and_cap() -> None:
    assert fts5_query("Python PYTHON python") == '"python"'
    many = " ".join(f"word{i}" for i in range(200))
    q = fts5_query(many)
    assert q is not None and q.count(" OR ") == MAX_TERMS - 1


def test_long_input_1000_chars(db: sqlite3.Connection) -> None:
    text = ('install "python" AND (linux OR NOT) ^col:x * ' * 40)[:1000]
    assert search(db, text)[0] == DOCS[0]


def test_tsquery_terms_are_plain() -> None:
    assert tsquery_terms("Install: Python's pip & (venv) | 3.11!") == [
        "install",
        "python",
        "s",
        "pip",
        "venv",
        "3",
        "11",
    ]


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=1000))
def test_any_text_is_a_valid_match_expression(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    conn.execute("INSERT INTO t(body) VALUES ('some body text')")
    q = fts5_query(text)
    if q is not None:
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (q,)).fetchone()
    for term in tsquery_terms(text):
        assert term.isalnum()
    conn.close()


SOUP = ['"', "AND", "OR", "NOT", "NEAR", "(", ")", "*", "^", ":", "-", "+", "x", "é", "😀", " "]
SOUP += ["NEAR/3", "{a b}:", "col:", "''", "\x00"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                '"',
                "AND",
                "OR",
                "NOT",
                "NEAR",
                "(",
                ")",
                "*",
                "^",
                ":",
                "-",
                "+",
                "x",
                "é",
                "😀",
                " ",
                "NEAR/3",
                "{a b}:",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_syntax_soup_never_errors(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(a, b)")
    q = fts5_query(text)
    if q is not None:
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (q,)).fetchall()
    conn.close()
