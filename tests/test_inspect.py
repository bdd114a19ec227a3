"""`webcorpus inspect FILE --url URL`: extraction + facets of a saved page; nothing stored."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from webcorpus.cli import build_parser
from webcorpus.inspect_cli import add_parser, cmd_inspect

PAGES = Path(__file__).resolve().parents[1] / "eval" / "facets" / "pages"
QUICKSTART = PAGES / "stackmint-docs-quickstart.html"
QUICKSTART_URL = "https://stackmint.io/docs/get-started/quickstart"


def _wired() -> bool:
    try:
        build_parser().parse_args(["inspect", "x", "--url", "https://a.test/"])
    except SystemExit:
        return False
    return True


def run_inspect(args: list[str], data_dir: Path) -> tuple[int, str, str]:
    """Run ``webcorpus inspect`` as a subprocess once cli.py has it, else in-process."""
    if _wired():
        env = {**os.environ, "WEBCORPUS_DATA_DIR": str(data_dir)}
        p = subprocess.run(
            [sys.executable, "-m", "webcorpus.cli", "inspect", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        return p.returncode, p.stdout, p.stderr
    import argparse

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="cmd"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            ns = parser.parse_args(["inspect", *args])
            code = cmd_inspect(ns)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def inspect_ok(args: list[str], data_dir: Path) -> dict[str, Any]:
    code, out, err = run_inspect(args, data_dir)
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_docs_page(tmp_path: Path) -> None:
    data = tmp_path / "data"
    page = inspect_ok([str(QUICKSTART), "--url", QUICKSTART_URL], data)
    assert page["id"].startswith("pg_") and len(page["id"]) == 19
    assert page["url"] == QUICKSTART_URL
    assert page["domain"] == "stackmint.io"
    f = page["facets"]
    assert set(f) == {
        "type",
        "format",
        "audience",
        "locale",
        "topics",
        "technicality",
        "depth",
        "originality",
        "promotional",
        "has_code",
        "words",
        "published",
    }
    assert f["type"] == "docs" and f["format"] == "tutorial" and f["has_code"] is True
    assert "```javascript" in page["markdown"] and "npm install -g stackmint" in page["markdown"]
    # every facet explains itself
    assert set(page["explain"]) >= {"type", "format", "locale", "has_code", "originality"}
    assert all(isinstance(v, list) for v in page["explain"].values())
    assert "code block" in " ".join(page["explain"]["has_code"])
    # links carry their position; the site navigation is template
    positions = {(ln["anchor_text"], ln["position"]) for ln in page["links"]}
    assert ("Pricing", "template") in positions
    assert page["signals"]["template_links"] > 0
    assert not data.exists() or not any(data.iterdir()), "inspect must store nothing"


def test_header_sets_locale_and_inline_code_is_not_code(tmp_path: Path) -> None:
    page = inspect_ok(
        [
            str(PAGES / "stackmint-changelog.html"),
            "--url",
            "https://stackmint.io/changelog",
            "--header",
            "Content-Language: en-GB",
        ],
        tmp_path,
    )
    assert page["facets"]["locale"] == "en-GB"
    assert page["facets"]["type"] == "changelog"
    # only inline identifiers (`stackmint connect`, `--role`): not a page with code
    assert "`--role`" in page["markdown"]
    assert page["facets"]["has_code"] is False


def test_non_english_page(tmp_path: Path) -> None:
    html = PAGES / "nubix-precios.html"  # in the repo: a missing file fails the test
    page = inspect_ok([str(html), "--url", "https://nubix.es/precios", "--compact"], tmp_path)
    assert page["facets"]["locale"].startswith("es")


@pytest.mark.parametrize(
    "args",
    [
        ["/nonexistent/page.html", "--url", "https://a.test/"],
        [str(QUICKSTART), "--url", "ftp://a.test/x"],
        [str(QUICKSTART), "--url", "https://a.test/", "--header", "no-colon"],
    ],
)
def test_errors_exit_2_with_a_message(tmp_path: Path, args: list[str]) -> None:
    code, out, err = run_inspect(args, tmp_path)
    assert code == 2 and out == "" and err.strip()


def test_binary_data_is_refused(tmp_path: Path) -> None:
    png = tmp_path / "image.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    code, out, err = run_inspect([str(png), "--url", "https://a.test/image.png"], tmp_path)
    assert code == 2 and out == ""
    assert "binary data, not an HTML page" in err
