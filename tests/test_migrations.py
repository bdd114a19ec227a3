"""Migrations carry existing data forward: a database written by an older schema keeps its pages."""

from __future__ import annotations

from pathlib import Path

from webcorpus.store.sqlite.db import _migrations, _split, connect, migrate


def test_page_bodies_move_out_of_pages_with_their_markdown(tmp_path: Path) -> None:
    conn = connect(tmp_path / "old.db")
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for version, sql in _migrations():
        if version > 6:
            break
        for statement in _split(sql):
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version(version) VALUES (?)", (version,))
    conn.execute(
        "INSERT INTO pages(id, url, domain, host, markdown, content_hash, text_hash, "
        "http_status, fetched_at, indexed_at, type, technicality, explain) "
        "VALUES ('pg_1', 'https://acme.com/a', 'acme.com', 'acme.com', '# A\n\nBody', 'c', 't', "
        "200, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'docs', 0.7, '{\"type\": \"x\"}')"
    )
    conn.execute("INSERT INTO page_topics(page_id, topic) VALUES ('pg_1', 'databases')")

    assert migrate(conn) >= 7
    columns = {r[1] for r in conn.execute("PRAGMA table_info(pages)")}
    assert "markdown" not in columns and "explain" not in columns
    assert {"type", "technicality", "words"} <= columns
    body = conn.execute("SELECT markdown, explain FROM page_bodies WHERE page_id = 'pg_1'")
    assert tuple(body.fetchone()) == ("# A\n\nBody", '{"type": "x"}')
    page = conn.execute("SELECT type, technicality FROM pages WHERE id = 'pg_1'").fetchone()
    assert tuple(page) == ("docs", 0.7)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []

    conn.execute("DELETE FROM pages WHERE id = 'pg_1'")  # a body goes with its page
    assert conn.execute("SELECT count(*) FROM page_bodies").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM page_topics").fetchone()[0] == 0
    conn.close()
