"""Page screenshots: Chromium (through Playwright) renders pages whose every request our fetcher
answers.

Chromium never reaches the network itself. Each request it makes is intercepted and answered
with ``fetch`` (the crawler's ``Fetcher.fetch``: the SSRF guard on every resolved address, the
host-resolution override, body limits), or refused. What interception does not see (WebSockets,
WebRTC) is sent to a proxy that does not exist and fails. Service workers and downloads are off.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from webcorpus.crawl.types import FetchResult

WIDTH, HEIGHT = 1280, 800
MAX_REQUESTS_PER_PAGE = 300
# Opening or closing a context or a page takes milliseconds; a browser that takes this long has
# died under Playwright, which can then wait forever for an answer that never comes.
ANSWER_S = 15.0
_DEAD_PROXY = "http://127.0.0.1:9"  # discard port: nothing that escapes interception connects
FLAGS = [
    "--headless",
    "--disable-gpu",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    f"--proxy-server={_DEAD_PROXY}",
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
]
# Response headers handed to Chromium; the body is already decompressed and complete.
_PASS_HEADERS = ("content-type", "location", "content-language", "last-modified", "etag")

Fetch = Callable[[str], Awaitable[FetchResult]]
T = TypeVar("T")
_DEBIAN_BINARY = "/usr/lib/chromium/chromium"


class ScreenshotsUnavailable(Exception):
    """No browser to take screenshots with (not installed, or it does not start)."""


class ShotFailed(Exception):
    """One page could not be rendered."""


@dataclass(slots=True)
class Shot:
    png: bytes
    width: int
    height: int


def find_chromium(configured: Path | None) -> str:
    """The Chromium binary: the configured path, else Debian's binary itself (its
    /usr/bin/chromium is a shell wrapper that adds extensions), else the usual names on PATH."""
    if configured is not None:
        if configured.is_file():
            return str(configured)
        raise ScreenshotsUnavailable(f"no browser at WEBCORPUS_CHROMIUM_PATH={configured}")
    if os.access(_DEBIAN_BINARY, os.X_OK):
        return _DEBIAN_BINARY
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    raise ScreenshotsUnavailable(
        "no Chromium found: install it (Debian: apt-get install chromium) or set "
        "WEBCORPUS_CHROMIUM_PATH"
    )


class Camera:
    """One browser for a run of screenshots: ``async with Camera(path, fetch) as cam``, then
    ``await cam.shoot(url)`` per page."""

    def __init__(self, chromium: str, fetch: Fetch, *, timeout_s: float = 20.0) -> None:
        self.chromium = chromium
        self.fetch = fetch
        self.timeout_s = timeout_s
        self._playwright: Any = None
        self._browser: Any = None

    async def __aenter__(self) -> Camera:
        try:
            from playwright.async_api import async_playwright
        except ImportError as exc:  # a broken install; the package is a dependency
            raise ScreenshotsUnavailable(f"playwright is not installed: {exc}") from exc
        try:
            self._playwright = await async_playwright().start()
        except Exception as exc:
            raise ScreenshotsUnavailable(f"the browser driver did not start: {exc}") from exc
        # Chromium's sandbox cannot run as root; everywhere else it stays on.
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
        try:
            self._browser = await _answered(
                self._playwright.chromium.launch(
                    executable_path=self.chromium,
                    args=[*FLAGS, "--no-sandbox"] if as_root else FLAGS,
                    chromium_sandbox=not as_root,
                    timeout=30_000,
                ),
                30 + ANSWER_S,
            )
        except Exception as exc:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._playwright.stop(), ANSWER_S)
            raise ScreenshotsUnavailable(
                f"{self.chromium} did not start: {_first_line(exc)}"
            ) from exc
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            with contextlib.suppress(Exception):  # a browser that died is closed already
                await asyncio.wait_for(self._browser.close(), ANSWER_S)
        finally:
            with contextlib.suppress(TimeoutError):  # the driver then exits with its stdin
                await asyncio.wait_for(self._playwright.stop(), ANSWER_S)

    async def shoot(self, url: str) -> Shot:
        """The viewport (1280x800) of ``url`` once it has loaded, or after ``timeout_s``.

        Raises ShotFailed for this page, or ScreenshotsUnavailable once the browser is gone."""
        if not self._browser.is_connected():
            raise ScreenshotsUnavailable("the browser has stopped")
        try:
            context = await _answered(
                self._browser.new_context(
                    viewport={"width": WIDTH, "height": HEIGHT},
                    service_workers="block",
                    accept_downloads=False,
                ),
                ANSWER_S,
            )
        except ScreenshotsUnavailable:
            raise
        except Exception as exc:
            raise ScreenshotsUnavailable(f"the browser failed: {_first_line(exc)}") from exc
        requests = 0

        async def answer(route: Any) -> None:
            nonlocal requests
            requests += 1
            request = route.request
            if request.method not in ("GET", "HEAD") or requests > MAX_REQUESTS_PER_PAGE:
                await route.abort("blockedbyclient")
                return
            result = await self.fetch(request.url)
            if result.status == 0:
                await route.abort("addressunreachable" if result.error == "ssrf" else "failed")
                return
            headers = {k: v for k, v in result.headers.items() if k in _PASS_HEADERS}
            await route.fulfill(status=result.status, headers=headers, body=result.body)

        try:
            await _answered(context.route("**/*", answer), ANSWER_S)
            page = await _answered(context.new_page(), ANSWER_S)
            try:
                response = await _answered(
                    page.goto(url, wait_until="load", timeout=self.timeout_s * 1000),
                    self.timeout_s + ANSWER_S,
                )
            except ScreenshotsUnavailable:
                raise
            except Exception as exc:  # slow subresources: keep what has rendered
                if "Timeout" not in type(exc).__name__:
                    raise ShotFailed(_first_line(exc)) from exc
                response = None
            if response is not None and response.status >= 400:
                raise ShotFailed(f"HTTP {response.status}")
            png = await asyncio.wait_for(
                page.screenshot(type="png", animations="disabled"), self.timeout_s
            )
        except (ShotFailed, ScreenshotsUnavailable):
            raise
        except Exception as exc:
            if not self._browser.is_connected():
                raise ScreenshotsUnavailable(f"the browser stopped: {_first_line(exc)}") from exc
            raise ShotFailed(_first_line(exc)) from exc
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(context.close(), ANSWER_S)
        return Shot(png=png, width=WIDTH, height=HEIGHT)


async def _answered(call: Awaitable[T], seconds: float) -> T:
    """``call``'s result, or ScreenshotsUnavailable once ``seconds`` pass without an answer:
    a Playwright call can wait forever when the browser dies during it."""
    try:
        return await asyncio.wait_for(call, seconds)
    except TimeoutError as exc:
        raise ScreenshotsUnavailable(f"the browser did not answer in {seconds:g} s") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]
