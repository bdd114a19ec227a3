"""Time and id helpers shared by services."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(value: str) -> float:
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def new_job_id() -> str:
    """``job_`` + a time-sortable id: 12 hex digits of milliseconds, then 8 random hex digits."""
    return f"job_{int(time.time() * 1000):012x}{os.urandom(4).hex()}"
