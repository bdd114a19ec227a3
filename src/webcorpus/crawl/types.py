"""Value types shared by the fetcher, the robots/sitemap readers and the job runner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

FetchErrorKind = Literal[
    "ssrf",  # resolved address refused by the SSRF guard
    "dns",  # name did not resolve
    "connect",  # connection refused / reset / dropped
    "timeout",
    "too_large",  # body over max_body_bytes (decompressed), incl. decompression bombs
    "bad_scheme",  # not http/https
    "protocol",  # malformed response, bad encoding, ...
    "robots",  # disallowed by robots.txt (asked for by the screenshot browser; never sent)
]


@dataclass(slots=True)
class FetchResult:
    """One HTTP exchange (a single hop; redirects are *not* followed by the fetcher).

    ``status`` is 0 when no response was received; then ``error`` says why.
    ``headers`` keys are lower-case. ``body`` is decompressed.
    """

    url: str
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    elapsed_s: float = 0.0
    error: FetchErrorKind | None = None
    error_detail: str | None = None
    attempts: int = 1

    @property
    def ok(self) -> bool:
        return self.error is None and 200 <= self.status < 300

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    @property
    def location(self) -> str | None:
        return self.headers.get("location")
