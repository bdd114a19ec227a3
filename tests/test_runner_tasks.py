"""The crawl runner's worker tasks: one failing must not leave the others running."""

from __future__ import annotations

import asyncio

import pytest

from webcorpus.crawl.runner import _gather_or_cancel


def test_a_failing_worker_ends_the_others_before_the_error_is_raised() -> None:
    ended: list[str] = []

    async def fails() -> None:
        await asyncio.sleep(0.01)
        raise RuntimeError("a write failed")

    async def runs_on() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            ended.append("cancelled")

    async def scenario() -> None:
        tasks = [asyncio.create_task(fails()), asyncio.create_task(runs_on())]
        with pytest.raises(RuntimeError, match="a write failed"):
            await _gather_or_cancel(tasks)
        # checked here, not after asyncio.run (which cancels whatever is left when it ends)
        assert ended == ["cancelled"] and all(t.done() for t in tasks)

    asyncio.run(asyncio.wait_for(scenario(), timeout=10))
