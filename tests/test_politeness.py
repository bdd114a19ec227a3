from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from webcorpus.config import Settings
from webcorpus.crawl.politeness import HostThrottle


async def run_requests(
    throttle: HostThrottle, host: str, n: int, work_s: float
) -> tuple[list[float], int]:
    """n concurrent 'requests' through the throttle: their start times and peak in-flight."""
    starts: list[float] = []
    in_flight = peak = 0

    async def one() -> None:
        nonlocal in_flight, peak
        async with throttle.slot(host):
            starts.append(time.monotonic())
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(work_s)
            in_flight -= 1

    await asyncio.gather(*(one() for _ in range(n)))
    return sorted(starts), peak


async def test_concurrency_cap_per_host() -> None:
    throttle = HostThrottle(delay_s=0.0, concurrency=3, adaptive=False)
    _, peak = await run_requests(throttle, "a.example", 12, 0.05)
    assert peak == 3


async def test_hosts_are_independent() -> None:
    throttle = HostThrottle(delay_s=0.0, concurrency=2, adaptive=False)
    t0 = time.monotonic()
    (_, peak_a), (_, peak_b) = await asyncio.gather(
        run_requests(throttle, "a.example", 4, 0.1), run_requests(throttle, "b.example", 4, 0.1)
    )
    assert peak_a == 2 and peak_b == 2
    assert time.monotonic() - t0 < 0.35  # ~0.2 s: the two hosts ran side by side


async def test_minimum_delay_between_starts() -> None:
    throttle = HostThrottle(delay_s=0.1, concurrency=4, adaptive=False)
    starts, _ = await run_requests(throttle, "a.example", 5, 0.0)
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert all(g >= 0.09 for g in gaps), gaps
    assert starts[-1] - starts[0] < 0.4 + 0.25  # loosely: not much slower than required


async def test_robots_crawl_delay_raises_floor_only() -> None:
    throttle = HostThrottle(delay_s=0.05, concurrency=4, adaptive=False)
    throttle.set_crawl_delay("slow.example", 0.15)
    throttle.set_crawl_delay("fast.example", 0.01)  # lower than ours: ours wins
    assert throttle.delay("slow.example") == pytest.approx(0.15)
    assert throttle.delay("fast.example") == pytest.approx(0.05)
    starts, _ = await run_requests(throttle, "SLOW.example", 3, 0.0)
    assert starts[-1] - starts[0] >= 0.28


async def test_zero_delay_adds_no_overhead() -> None:
    throttle = HostThrottle(delay_s=0.0, concurrency=1000, adaptive=False)
    t0 = time.monotonic()
    for _ in range(20_000):
        async with throttle.slot("bench.example"):
            pass
    per_slot_us = (time.monotonic() - t0) / 20_000 * 1e6
    assert per_slot_us < 200, per_slot_us  # ~17 µs measured


def test_adaptive_grows_with_latency_and_backoff_then_recovers() -> None:
    throttle = HostThrottle(delay_s=0.1, concurrency=2, adaptive=True, max_delay_s=10.0)
    host = "h.example"
    for _ in range(10):
        throttle.record(host, 4.0, 200)  # slow host: target 4 s / 2 = 2 s
    assert throttle.delay(host) == pytest.approx(2.0, rel=0.01)
    throttle.record(host, 0.01, 503)
    assert throttle.delay(host) == pytest.approx(4.0, rel=0.01)
    throttle.record(host, 0.01, 429)
    assert throttle.delay(host) == pytest.approx(8.0, rel=0.01)
    for _ in range(3):
        throttle.record(host, 0.01, 429)
    assert throttle.delay(host) == 10.0  # capped
    throttle.record(host, 0.01, 404)  # fast error pages don't speed us up
    assert throttle.delay(host) == 10.0
    for _ in range(30):
        throttle.record(host, 0.01, 200)
    assert throttle.delay(host) == pytest.approx(0.1)  # back to the floor, not below


def test_backoff_from_zero_delay_and_non_adaptive() -> None:
    adaptive = HostThrottle(delay_s=0.0, concurrency=4, adaptive=True)
    adaptive.record("x", 0.01, 429)
    assert adaptive.delay("x") >= 1.0
    fixed = HostThrottle(delay_s=0.2, concurrency=4, adaptive=False)
    fixed.record("x", 5.0, 503)
    assert fixed.delay("x") == 0.2


def test_from_settings() -> None:
    s = Settings(_env_file=None, crawl_delay_s=0.5, host_concurrency=2, adaptive_delay=False)  # type: ignore[call-arg]
    t = HostThrottle.from_settings(s)
    assert (t.delay_s, t.concurrency, t.adaptive) == (0.5, 2, False)
    with pytest.raises(ValueError):
        HostThrottle(concurrency=0)
