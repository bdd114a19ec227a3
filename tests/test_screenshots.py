"""The screenshot browser reaches nothing by itself: every request goes through the crawl fetcher
(which refuses private addresses), and what interception cannot see (WebSockets) goes nowhere."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from pathlib import Path

import pytest

from tests.server import make_settings
from tests.sites.static import serve_site
from webcorpus.crawl.fetcher import Fetcher
from webcorpus.render.screenshots import (
    HEIGHT,
    WIDTH,
    Camera,
    ScreenshotsUnavailable,
    _answered,
    find_chromium,
)


def test_the_browser_connects_to_nothing_but_through_the_fetcher(tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    connections: list[object] = []

    def accept() -> None:
        while True:
            try:
                conn, addr = listener.accept()
            except OSError:
                return
            connections.append(addr)
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    page = (
        "<html><head><link rel='stylesheet' href='/look.css'></head><body><h1>Probe</h1>"
        f"<img src='http://127.0.0.1:{port}/pixel.png'>"
        f"<script>try {{ new WebSocket('ws://127.0.0.1:{port}/socket') }} catch (e) {{}}"
        f"fetch('http://127.0.0.1:{port}/api').catch(() => 0)</script></body></html>"
    )
    pages = {"/": page, "/look.css": "h1 { color: #c00 }"}
    with serve_site(pages, host="probe.test") as site:
        settings = make_settings(tmp_path, connect_to=site.connect_to())

        async def shoot() -> bytes:
            async with (
                Fetcher(settings) as fetcher,
                Camera(find_chromium(None), fetcher.fetch, timeout_s=10) as camera,
            ):
                shot = await camera.shoot("http://probe.test/")  # after the page's scripts ran
                return shot.png

        png = asyncio.run(shoot())
        hits = list(site.hits)
    listener.close()
    assert struct.unpack(">II", png[16:24]) == (WIDTH, HEIGHT)
    assert hits[:1] == ["/"] and "/look.css" in hits  # answered through the fetcher
    assert connections == []  # no image, fetch or WebSocket reached the loopback listener


def test_a_browser_call_that_is_never_answered_gives_up() -> None:
    """Playwright can wait forever for a browser that died during a call (seen with new_page):
    every call has a deadline after which the browser counts as gone."""

    async def never_answered() -> None:
        await asyncio.Event().wait()

    with pytest.raises(ScreenshotsUnavailable, match=r"did not answer in 0\.2 s"):
        asyncio.run(_answered(never_answered(), 0.2))
