"""The reference MCP Inspector CLI against a running server: lists the tools and calls one.

The Inspector is installed once with npm into ~/.cache/webcorpus-test/npm (pinned version);
later runs reuse it without the network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import Running, make_settings, run_server
from tests.sites.nginx import RunningServer

INSPECTOR_VERSION = "2.12.0"
NPM_PREFIX = Path.home() / ".cache" / "webcorpus-test" / "npm"
INSPECTOR_BIN = NPM_PREFIX / "node_modules" / ".bin" / "mcp-inspector"
TOOLS = {
    "search",
    "list_content",
    "get_page",
    "get_page_markdown",
    "get_domain",
    "get_domain_markdown",
    "list_collections",
    "get_collection",
    "get_job",
    "list_facets",
    "start_crawl",
    "place_on_shelf",
}


def installed_version() -> str | None:
    manifest = NPM_PREFIX / "node_modules" / "@modelcontextprotocol" / "inspector" / "package.json"
    if not INSPECTOR_BIN.exists() or not manifest.exists():
        return None
    return str(json.loads(manifest.read_text())["version"])


@pytest.fixture(scope="module")
def inspector() -> Path:
    if installed_version() != INSPECTOR_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        NPM_PREFIX.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(NPM_PREFIX),
                f"@modelcontextprotocol/inspector@{INSPECTOR_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0 or installed_version() != INSPECTOR_VERSION:
            pytest.skip(f"could not install the MCP Inspector: {done.stderr[-500:]}")
    return INSPECTOR_BIN


@pytest.fixture(scope="module")
def server(
    nginx_server: RunningServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    settings = make_settings(
        tmp_path_factory.mktemp("inspector"),
        connect_to=nginx_server.connect_to(refuse_https=True),
        embeddings=False,
    )
    with run_server(settings) as srv:
        srv.wait(srv.crawl("www.postgresql.org", budget=20), timeout=300)
        yield srv


def run_cli(inspector: Path, srv: Running, *args: str) -> dict[str, Any]:
    env = {**os.environ, "MCP_CATALOG_PATH": str(NPM_PREFIX / "catalog.json")}
    done = subprocess.run(
        [str(inspector), "--cli", f"{srv.base_url}/api/mcp", "--transport", "http", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_inspector_lists_tools(inspector: Path, server: Running) -> None:
    listed = run_cli(inspector, server, "--method", "tools/list", "--strict")
    tools = {t["name"]: t for t in listed["tools"]}
    assert set(tools) == TOOLS
    assert all(t["inputSchema"]["type"] == "object" for t in tools.values())
    assert all(t.get("outputSchema") for t in tools.values())


def test_inspector_calls_a_tool(inspector: Path, server: Running) -> None:
    result = run_cli(
        inspector,
        server,
        "--method",
        "tools/call",
        "--tool-name",
        "search",
        "--tool-arg",
        "q=table",
        "--tool-arg",
        "limit=3",
    )
    assert not result.get("isError"), result
    body = result["structuredContent"]
    want = server.client.get("/api/search", params={"q": "table", "limit": 3}).json()
    assert body == want
    assert 1 <= len(body["data"]) <= 3
