"""Per-host pacing: a concurrency cap and a minimum gap between request starts.

Adaptive mode follows Scrapy's AutoThrottle: a host answering in ``latency`` seconds gets one
request every ``latency / target_concurrency`` seconds, the delay moving halfway toward that
target on each response; 429/503 double it. It never drops below the floor (the configured
delay, raised by robots.txt Crawl-delay) nor rises above ``max_delay_s``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from webcorpus.config import Settings

BACKOFF_STATUSES = frozenset({429, 503})


@dataclass(slots=True)
class _Host:
    semaphore: asyncio.Semaphore
    floor: float
    delay: float
    next_start: float = 0.0
    in_flight: int = field(default=0)


class HostThrottle:
    def __init__(
        self,
        *,
        delay_s: float = 0.25,
        concurrency: int = 4,
        adaptive: bool = True,
        max_delay_s: float = 60.0,
        target_concurrency: float | None = None,
        backoff_min_s: float = 1.0,
    ) -> None:
        if concurrency < 1:
            raise ValueError("host concurrency must be at least 1")
        self.delay_s = max(0.0, delay_s)
        self.concurrency = concurrency
        self.adaptive = adaptive
        self.max_delay_s = max(max_delay_s, self.delay_s)
        self.target_concurrency = target_concurrency or float(concurrency)
        self.backoff_min_s = backoff_min_s
        self._hosts: dict[str, _Host] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> HostThrottle:
        return cls(
            delay_s=settings.crawl_delay_s,
            concurrency=settings.host_concurrency,
            adaptive=settings.adaptive_delay,
        )

    def _host(self, host: str) -> _Host:
        key = host.lower()
        state = self._hosts.get(key)
        if state is None:
            state = _Host(asyncio.Semaphore(self.concurrency), self.delay_s, self.delay_s)
            self._hosts[key] = state
        return state

    def delay(self, host: str) -> float:
        """Current gap between request starts for ``host``."""
        return self._host(host).delay

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        """robots.txt Crawl-delay: raises the floor (never lowers it below ``delay_s``)."""
        state = self._host(host)
        state.floor = min(max(self.delay_s, seconds), self.max_delay_s)
        state.delay = max(state.delay, state.floor)

    @asynccontextmanager
    async def slot(self, host: str) -> AsyncIterator[None]:
        state = self._host(host)
        async with state.semaphore:
            if state.delay > 0.0:
                now = time.monotonic()
                start = max(now, state.next_start)
                state.next_start = start + state.delay  # reserved before awaiting: no race
                if start > now:
                    await asyncio.sleep(start - now)
            state.in_flight += 1
            try:
                yield
            finally:
                state.in_flight -= 1

    def record(self, host: str, elapsed_s: float, status: int) -> None:
        """Feed back one response (status 0: no response) to adapt the host's delay."""
        if not self.adaptive:
            return
        state = self._host(host)
        if status in BACKOFF_STATUSES:
            new = max(state.delay * 2.0, self.backoff_min_s)
        elif status == 0:
            return
        else:
            target = max(elapsed_s, 0.0) / self.target_concurrency
            new = max(target, (state.delay + target) / 2.0)
            # Error pages and redirects are fast and small: they must not speed us up.
            if not (200 <= status < 300 or status == 304) and new < state.delay:
                return
        state.delay = min(max(new, state.floor), self.max_delay_s)
