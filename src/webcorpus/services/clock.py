"""Time and id helpers shared by services."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def http_date_iso(value: str | None) -> str | None:
    """An HTTP date header (``Thu, 26 Nov 2026 11:58:25 GMT``) as RFC 3339 UTC, like every time
    the API shows; a value already in that form is kept, anything unreadable is None."""
    if not value:
        return None
    value = value.strip()
    try:
        parse_iso(value)
        return value
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; "-0000" parses as naive
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(value: str) -> float:
    return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def new_job_id() -> str:
    """``job_`` + a time-sortable id: 12 hex digits of milliseconds, then 8 random hex digits."""
    return f"job_{int(time.time() * 1000):012x}{os.urandom(4).hex()}"
