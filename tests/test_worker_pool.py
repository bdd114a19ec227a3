"""The crawl worker starts its processing processes before the first job arrives."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.server import make_settings, run_server
from webcorpus.crawl.worker import default_processes


def _pool_processes() -> set[int]:
    """Children of this process started by multiprocessing's spawn (not its resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


def test_pool_is_up_before_the_first_crawl(tmp_path: Path) -> None:
    expected = default_processes()
    before = _pool_processes()
    with run_server(make_settings(tmp_path)) as srv:
        deadline = time.monotonic() + 30
        while len(_pool_processes() - before) < expected and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(_pool_processes() - before) == expected
        assert srv.client.get("/api/content").json()["data"] == []  # no crawl was asked for
