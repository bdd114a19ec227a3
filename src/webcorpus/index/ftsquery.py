"""Turn arbitrary user text into safe full-text queries.

Users type questions, not query syntax, so operators (AND/OR/NOT/NEAR, ``*``, ``^``, ``:``,
parentheses, quotes) are treated as plain text. Each remaining word becomes a double-quoted FTS5
string (which FTS5 never parses as syntax) and the words are OR'ed: BM25 sums the per-term scores,
so chunks containing more (and rarer) query words rank first, while a question with one word
missing from the best chunk still finds it (implicit AND would return nothing). Common English
function words are dropped unless nothing else remains, so "how do I install python" does not
match every chunk containing "how".
"""

from __future__ import annotations

import re

MAX_TERMS = 32
# Letters and digits only: no quotes, operators or NULs can survive, and "_" separates words
# as it does in FTS5's unicode61 tokenizer.
_TOKEN = re.compile(r"[^\W_]+")

_STOPWORD_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves near
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def _terms(user_text: str) -> list[str]:
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(user_text.casefold()):
        seen.setdefault(match.group(0), None)
    words = list(seen)
    content = [w for w in words if w not in STOPWORDS]
    return (content or words)[:MAX_TERMS]


def fts5_query(user_text: str) -> str | None:
    """A MATCH expression for SQLite FTS5 (``"w1" OR "w2" ...``), or None if nothing is left."""
    terms = _terms(user_text)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def tsquery_terms(user_text: str) -> list[str]:
    """Plain lower-case words (letters/digits only) for a PostgreSQL tsquery, e.g. joined by " | "
    into ``to_tsquery('simple', ...)``; same selection as :func:`fts5_query`."""
    return _terms(user_text)
