"""Shelves: /api/collections reads and key-protected writes, and `webcorpus shelves`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer
from webcorpus import shelves_cli


@pytest.fixture(scope="module")
def srv(nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("shelves"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as running:
        running.wait(running.crawl("postgresql.org", budget=20))
        yield running


def test_writes_need_a_key(srv: Running) -> None:
    assert srv.client.put("/api/collections/dbs", json={"name": "x"}).status_code == 401
    r = srv.client.post("/api/collections/dbs/members", json={"domain": "postgresql.org"})
    assert r.status_code == 401
    assert srv.client.delete("/api/collections/dbs/members/postgresql.org").status_code == 401


def test_shelf_lifecycle(srv: Running) -> None:
    auth = srv.auth
    r = srv.client.put(
        "/api/collections/databases",
        json={"name": "Databases", "description": "SQL engines"},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    assert r.json()["slug"] == "databases" and r.json()["members"] == []
    r = srv.client.put("/api/collections/databases", json={"name": "Open databases"}, headers=auth)
    assert r.status_code == 200 and r.json()["name"] == "Open databases"

    r = srv.client.post(
        "/api/collections/databases/members",
        json={"domain": "www.PostgreSQL.org", "reason": "the database"},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    member = r.json()
    assert member["domain"] == "postgresql.org" and member["placed_by"] == "person"
    pages = srv.client.get("/api/content", params={"domain": "postgresql.org"}).json()["total"]
    assert member["crawled"] is True and member["pages"] == pages >= 15
    r = srv.client.post(
        "/api/collections/databases/members",
        json={"domain": "sqlite.org", "reason": "embedded", "placed_by": "agent"},
        headers=auth,
    )
    assert r.status_code == 201
    assert r.json()["crawled"] is False and r.json()["pages"] == 0

    listing = srv.client.get("/api/collections", params={"sortt": "x"}).json()
    assert listing["total"] == 1 and listing["filters"]["unrecognized"] == ["sortt"]
    shelf = listing["data"][0]
    assert {k: shelf[k] for k in ("slug", "name", "companies", "crawled")} == {
        "slug": "databases",
        "name": "Open databases",
        "companies": 2,
        "crawled": 1,
    }
    one = srv.client.get("/api/collections/databases").json()
    assert [(m["domain"], m["placed_by"], m["reason"]) for m in one["members"]] == [
        ("postgresql.org", "person", "the database"),
        ("sqlite.org", "agent", "embedded"),
    ]
    assert all(m["placed_at"].endswith("Z") for m in one["members"])

    content = srv.client.get("/api/content", params={"collection": "databases"}).json()
    assert content["total"] == pages

    r = srv.client.delete("/api/collections/databases/members/sqlite.org", headers=auth)
    assert r.status_code == 204
    r = srv.client.delete("/api/collections/databases/members/sqlite.org", headers=auth)
    assert r.status_code == 404
    assert srv.client.get("/api/collections/nope").status_code == 404


def test_bad_requests(srv: Running) -> None:
    auth = srv.auth
    srv.client.put("/api/collections/bad-input", json={"name": "B"}, headers=auth)
    cases = [
        ("put", "/api/collections/Bad_Slug", {"name": "x"}, 400),
        ("put", "/api/collections/-dash", {"name": "x"}, 400),
        ("put", "/api/collections/" + "a" * 64, {"name": "x"}, 400),
        ("put", "/api/collections/ok", {"name": "x", "colour": "red"}, 400),
        ("put", "/api/collections/ok", {"description": "no name"}, 400),
        ("post", "/api/collections/bad-input/members", {"domain": "x.org", "why": "?"}, 400),
        ("post", "/api/collections/bad-input/members", {"domain": "http://x.org/"}, 400),
        ("post", "/api/collections/bad-input/members", {"domain": "10.0.0.1"}, 400),
        (
            "post",
            "/api/collections/bad-input/members",
            {"domain": "x.org", "placed_by": "bot"},
            400,
        ),
        ("post", "/api/collections/missing/members", {"domain": "x.org"}, 404),
    ]
    for method, url, body, status in cases:
        r = srv.client.request(method, url, json=body, headers=auth)
        assert r.status_code == status, (url, body, r.text)
        assert r.headers["content-type"] == "application/problem+json"
    r = srv.client.post(
        "/api/collections/bad-input/members",
        content=b"domain=x.org",
        headers={**auth, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 415
    r = srv.client.post(
        "/api/collections/bad-input/members",
        content=json.dumps({"domain": "x.org", "reason": "y" * 20000}),
        headers={**auth, "Content-Type": "application/json"},
    )
    assert r.status_code == 413


def test_slugs_are_case_insensitive_like_the_collection_filter(srv: Running) -> None:
    r = srv.client.put("/api/collections/Case-Shelf", json={"name": "Case"}, headers=srv.auth)
    assert r.status_code == 201, r.text
    assert r.headers["location"] == "/api/collections/case-shelf"
    assert r.json()["slug"] == "case-shelf"
    r = srv.client.post(
        "/api/collections/CASE-shelf/members", json={"domain": "example.org"}, headers=srv.auth
    )
    assert r.status_code == 201, r.text
    shelf = srv.client.get("/api/collections/CASE-SHELF").json()
    assert shelf["slug"] == "case-shelf"
    assert [m["domain"] for m in shelf["members"]] == ["example.org"]
    listed = srv.client.get("/api/content", params={"collection": "Case-Shelf"}).json()
    assert listed["filters"]["applied"]["collection"] == "case-shelf"
    r = srv.client.delete("/api/collections/Case-SHELF/members/example.org", headers=srv.auth)
    assert r.status_code == 204


def run_cli(data_dir: Path, monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    monkeypatch.setenv("WEBCORPUS_DATA_DIR", str(data_dir))
    monkeypatch.setenv("WEBCORPUS_ALLOW_PRIVATE_SUFFIXES", "true")
    parser = argparse.ArgumentParser(prog="webcorpus")
    shelves_cli.add_parser(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args(list(argv))
    return int(args.func(args))


def test_cli(
    srv: Running, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = srv.settings.data_dir
    assert run_cli(data, monkeypatch, "shelves", "put", "docs", "--name", "Doc sites") == 0
    assert run_cli(data, monkeypatch, "shelves", "add", "docs", "postgresql.org", "python.org") == 0
    capsys.readouterr()
    assert run_cli(data, monkeypatch, "shelves", "show", "docs", "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert [m["domain"] for m in shown["members"]] == ["postgresql.org", "python.org"]
    assert run_cli(data, monkeypatch, "shelves", "remove", "docs", "python.org") == 0
    assert run_cli(data, monkeypatch, "shelves", "list") == 0
    assert "docs\t1 companies\t1 crawled\tDoc sites" in capsys.readouterr().out
    assert run_cli(data, monkeypatch, "shelves", "show", "nope") == 2
    # crawl every company on the shelf: a job per member, run by the server's worker
    assert run_cli(data, monkeypatch, "shelves", "crawl", "docs", "--budget", "5") == 0
    job_id, domain = capsys.readouterr().out.strip().split("\t")
    assert domain == "postgresql.org"
    view = srv.wait(job_id)
    assert view["state"] in ("completed", "partial") and view["params"]["budget"] == 5
