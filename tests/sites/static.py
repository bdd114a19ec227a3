"""A small static site on loopback for tests that need a handful of hand-written pages.

``serve_site({"/": html, "/docs/a.html": html}, host="acme.test")`` serves the pages over real
HTTP (a ``ThreadingHTTPServer`` on 127.0.0.1) and gives the ``connect_to`` entries that route
the host's port 80 to it and refuse its port 443 at once (so the crawl does not wait on https).
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

LAST_MODIFIED = "Tue, 03 Nov 2026 08:00:00 GMT"  # of every file
REDIRECT = "redirect:"  # a page "redirect:/en/" answers 301 to /en/
SLOW = "slow:"  # a page "slow:0.5:<body>" answers <body> after half a second


@dataclass
class StaticSite:
    host: str
    port: int
    refused_port: int
    hits: list[str] = field(default_factory=list)
    """Paths requested so far, in order."""

    def connect_to(self) -> list[str]:
        hosts = (self.host, f"www.{self.host}")
        return [f"{h}:80:127.0.0.1:{self.port}" for h in hosts] + [
            f"{h}:443:127.0.0.1:{self.refused_port}" for h in hosts
        ]


def _handler(pages: dict[str, str], hits: list[str]) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            hits.append(path)
            body = pages.get(path)
            if body is not None and body.startswith(SLOW):
                delay, body = body.removeprefix(SLOW).split(":", 1)
                time.sleep(float(delay))
            if body is not None and body.startswith(REDIRECT):
                self.send_response(301)
                self.send_header("Location", body.removeprefix(REDIRECT))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = body.encode("utf-8")
            kind = {"txt": "text/plain", "xml": "application/xml", "css": "text/css"}.get(
                path.rsplit(".", 1)[-1], "text/html; charset=utf-8"
            )
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Last-Modified", LAST_MODIFIED)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


@contextmanager
def serve_site(pages: dict[str, str], *, host: str = "acme.test") -> Iterator[StaticSite]:
    hits: list[str] = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(pages, hits))
    refuser = socket.socket()
    refuser.bind(("127.0.0.1", 0))  # bound, not listening: connections are refused
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield StaticSite(host, int(server.server_address[1]), int(refuser.getsockname()[1]), hits)
    finally:
        server.shutdown()
        server.server_close()
        refuser.close()
